package com.acme.shop

import groovy.transform.CompileStatic
import groovy.json.*
import static java.util.Collections.emptyList
import java.time.LocalDate as Day

/**
 * Pricing computes what a customer pays.
 */
interface Pricing extends Serializable {
    BigDecimal priceOf(String sku)
}

/** Greeter says hello to a named customer. */
trait Greeter extends Named {
    String greet() { "Hello, ${name}" }
}

/**
 * OrderService places and totals orders.
 */
@CompileStatic
class OrderService extends BaseService {
    static final int MAX_LINES = 50
    private final Map<String, Order> orders = [:]
    protected Pricing pricing
    String region
    def audit = { String event -> log.info("audit: ${event}") }

    /** Creates a service for a region. */
    OrderService(region, pricing) {
        setRegion(region)
        setPricing(pricing)
    }

    /**
     * Places an order for one line.
     */
    Order place(String sku, int qty = 1) {
        if (orders.size() >= MAX_LINES) {
            throw new IllegalStateException("too many orders")
        }
        def order = new Order(sku: sku, qty: qty)
        orders[sku] = order
        audit("placed ${sku}")
        return order
    }

    BigDecimal total(Customer customer) {
        def amount = orders.values().sum { Order o -> pricing.priceOf(o.sku) * o.qty } ?: 0
        customer?.discount ? amount * 0.9 : amount
    }

    List<String> skus() {
        orders.values()*.sku
    }

    private static String normalize(String sku) {
        sku.trim().toUpperCase()
    }

    // Not a doc comment: a note.
    def report(Writer out) {
        try {
            orders.each { sku, order -> out.println("${sku}: ${order.qty}") }
        } catch (IOException e) {
            log.warn("report failed", e)
        }
    }

    static class Order {
        String sku
        int qty
    }
}

/**
 * Formats a price for display.
 */
def formatPrice(BigDecimal amount) {
    String.format('%.2f', amount)
}

// The service every script call uses.
def service = new OrderService('eu', null)

final int RETRIES = 3
def onError = { Exception e -> println "failed: ${e.message}" }

for (int i = 0; i < RETRIES; i++) {
    service.place('SKU-1')
}

println formatPrice(service.total(null))
