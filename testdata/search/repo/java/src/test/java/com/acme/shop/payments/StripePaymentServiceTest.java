package com.acme.shop.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StripePaymentServiceTest {

    @Test
    void providerNameIsStripe() {
        PaymentService service = new StripePaymentService("sk_test_123");
        assertEquals("stripe", service.providerName());
    }

    @Test
    void declinedResultCarriesDeclineCode() {
        PaymentResult result = PaymentResult.declined("insufficient_funds");
        assertFalse(result.succeeded());
        assertEquals("insufficient_funds", result.declineCode());
    }

    @Test
    void serverErrorsAreRetryable() {
        assertTrue(new PaymentException("stripe returned 502", 502).isRetryable());
        assertFalse(new PaymentException("stripe returned 400", 400).isRetryable());
    }
}
