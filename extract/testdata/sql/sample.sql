-- Schema for the billing service.

CREATE SCHEMA billing;

-- customers holds everyone who can be invoiced.
CREATE TABLE billing.customers (
    id BIGSERIAL PRIMARY KEY,
    email VARCHAR(255) NOT NULL UNIQUE,
    display_name TEXT,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- invoices are issued to a customer once a month.
CREATE TABLE IF NOT EXISTS billing.invoices (
    id BIGSERIAL PRIMARY KEY,
    customer_id BIGINT NOT NULL REFERENCES billing.customers (id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    status VARCHAR(16) NOT NULL DEFAULT 'draft',
    issued_at TIMESTAMP,
    FOREIGN KEY (customer_id) REFERENCES billing.customers (id)
);

-- invoice_status is where an invoice is in its life.
CREATE TYPE billing.invoice_status AS ENUM ('draft', 'issued', 'paid');

create table audit_log (
    id integer primary key,
    action text not null,
    payload jsonb
);

-- idx_invoices_customer speeds up the lookup of a customer's invoices.
CREATE INDEX idx_invoices_customer ON billing.invoices (customer_id);

CREATE UNIQUE INDEX idx_customers_email ON billing.customers (email);

-- open_invoices lists the invoices not yet paid.
CREATE VIEW billing.open_invoices AS
SELECT i.id, c.email, i.amount_cents
FROM billing.invoices AS i
JOIN billing.customers AS c ON c.id = i.customer_id
WHERE i.status <> 'paid';

-- invoice_total sums the invoices of one customer.
CREATE OR REPLACE FUNCTION billing.invoice_total(customer BIGINT)
RETURNS BIGINT
LANGUAGE sql
AS $$
    SELECT COALESCE(SUM(amount_cents), 0) FROM billing.invoices WHERE customer_id = customer;
$$;

-- touch_updated_at stamps a row on update.
CREATE FUNCTION touch_updated_at() RETURNS TRIGGER
LANGUAGE plpgsql
AS $$
BEGIN
    RETURN NEW;
END;
$$;

-- trg_invoices_touch keeps issued_at current.
CREATE TRIGGER trg_invoices_touch
BEFORE UPDATE ON billing.invoices
FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- monthly_revenue is refreshed nightly for the dashboard.
CREATE MATERIALIZED VIEW billing.monthly_revenue AS
SELECT customer_id, SUM(amount_cents) AS total
FROM billing.invoices
GROUP BY customer_id;

INSERT INTO audit_log (id, action) VALUES (1, 'schema created');
