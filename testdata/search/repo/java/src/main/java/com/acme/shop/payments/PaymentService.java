package com.acme.shop.payments;

/**
 * Charges customers and refunds charges. Implementations talk to one payment provider;
 * callers depend on this interface only, so the provider can be swapped in configuration.
 */
public interface PaymentService {

    /**
     * Charges a customer's default payment method.
     *
     * @param customerId the provider's customer id
     * @param amountCents the amount in minor units of {@code currency}
     * @param currency an ISO 4217 code such as {@code "EUR"}
     * @param idempotencyKey a key that makes retries of the same charge safe
     * @return the result of the charge, successful or declined
     * @throws PaymentException when the provider cannot be reached or rejects the request
     */
    PaymentResult charge(String customerId, long amountCents, String currency, String idempotencyKey)
            throws PaymentException;

    /**
     * Refunds a charge in full.
     *
     * @param chargeId the id returned in {@link PaymentResult#chargeId()}
     * @throws PaymentException when the refund is rejected
     */
    void refund(String chargeId) throws PaymentException;

    /** The name of the provider, for logs and metrics. */
    String providerName();
}
