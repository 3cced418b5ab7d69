package com.acme.shop.payments;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** A {@link PaymentService} backed by the Stripe REST API. */
public class StripePaymentService implements PaymentService {

    private static final URI API_BASE = URI.create("https://api.stripe.com/v1/");
    private static final Pattern ID_FIELD = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern DECLINE_CODE = Pattern.compile("\"decline_code\"\\s*:\\s*\"([^\"]+)\"");

    private final HttpClient http;
    private final String secretKey;

    public StripePaymentService(String secretKey) {
        this(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), secretKey);
    }

    StripePaymentService(HttpClient http, String secretKey) {
        this.http = http;
        this.secretKey = secretKey;
    }

    @Override
    public PaymentResult charge(String customerId, long amountCents, String currency, String idempotencyKey)
            throws PaymentException {
        Map<String, String> form = Map.of(
                "customer", customerId,
                "amount", Long.toString(amountCents),
                "currency", currency.toLowerCase(),
                "confirm", "true");
        HttpResponse<String> response = post("payment_intents", form, idempotencyKey);
        if (response.statusCode() == 402) {
            // Stripe answers 402 Payment Required for card_declined and its decline codes.
            return PaymentResult.declined(find(DECLINE_CODE, response.body(), "generic_decline"));
        }
        expectSuccess(response);
        return PaymentResult.success(find(ID_FIELD, response.body(), null));
    }

    @Override
    public void refund(String chargeId) throws PaymentException {
        expectSuccess(post("refunds", Map.of("payment_intent", chargeId), "refund-" + chargeId));
    }

    @Override
    public String providerName() {
        return "stripe";
    }

    private HttpResponse<String> post(String path, Map<String, String> form, String idempotencyKey)
            throws PaymentException {
        String body = form.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpRequest request = HttpRequest.newBuilder(API_BASE.resolve(path))
                .header("Authorization", "Bearer " + secretKey)
                .header("Idempotency-Key", idempotencyKey)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new PaymentException("stripe unreachable: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PaymentException("interrupted while calling stripe", e);
        }
    }

    private static void expectSuccess(HttpResponse<String> response) throws PaymentException {
        if (response.statusCode() / 100 != 2) {
            throw new PaymentException("stripe returned " + response.statusCode(), response.statusCode());
        }
    }

    private static String find(Pattern pattern, String json, String fallback) {
        Matcher m = pattern.matcher(json);
        return m.find() ? m.group(1) : fallback;
    }
}
