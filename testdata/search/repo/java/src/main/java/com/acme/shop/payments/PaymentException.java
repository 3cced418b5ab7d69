package com.acme.shop.payments;

/** A payment request that failed for a reason other than a card decline. */
public class PaymentException extends Exception {

    private final int statusCode;

    public PaymentException(String message, int statusCode) {
        super(message);
        this.statusCode = statusCode;
    }

    public PaymentException(String message, Throwable cause) {
        super(message, cause);
        this.statusCode = 0;
    }

    /** The provider's HTTP status code, or 0 when the request never got an answer. */
    public int getStatusCode() {
        return statusCode;
    }

    /** Whether sending the same request again may succeed. */
    public boolean isRetryable() {
        return statusCode == 0 || statusCode == 429 || statusCode >= 500;
    }
}
