module github.com/acme/storefront

go 1.22

require github.com/acme/pool v0.3.2
