package com.acme.shop.payments;

import java.util.Objects;

/**
 * The outcome of {@link PaymentService#charge}: either a successful charge with its id, or a
 * decline with the provider's reason code.
 */
public record PaymentResult(String chargeId, boolean succeeded, String declineCode) {

    public PaymentResult {
        if (succeeded) {
            Objects.requireNonNull(chargeId, "a successful charge needs an id");
        }
    }

    public static PaymentResult success(String chargeId) {
        return new PaymentResult(chargeId, true, null);
    }

    public static PaymentResult declined(String declineCode) {
        return new PaymentResult(null, false, declineCode);
    }
}
