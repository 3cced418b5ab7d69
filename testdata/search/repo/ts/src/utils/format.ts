/** Formatting helpers for the admin dashboard. */

const currencyFormatters = new Map<string, Intl.NumberFormat>();

/** Formats an amount in minor units (cents) as a localized currency string. */
export function formatCurrency(amountCents: number, currency = "EUR", locale = "de-DE"): string {
  const key = `${locale}:${currency}`;
  let formatter = currencyFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: "currency", currency });
    currencyFormatters.set(key, formatter);
  }
  return formatter.format(amountCents / 100);
}

/** Formats a date as YYYY-MM-DD in UTC. */
export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Shortens text to at most max characters, ending with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Turns "Jane Doe" into "JD" for avatar placeholders. */
export const initials = (displayName: string): string =>
  displayName
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0].toUpperCase())
    .join("");
