/** A small fetch-based client for the storefront HTTP API. */

export interface ClientOptions {
  baseUrl: string;
  /** How many times a 503 is retried; once retries are exhausted the ApiError is thrown. */
  maxRetries?: number;
  fetch?: typeof fetch;
}

/** An HTTP error response from the API. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string>,
  ) {
    super(`API request failed with status ${status}`);
    this.name = "ApiError";
  }
}

/**
 * Parses a raw header block ("Name: value" lines, as in XMLHttpRequest's
 * getAllResponseHeaders) into an object with lower-cased names. Repeated headers are
 * joined with ", ".
 */
export function parseHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ApiClient {
  private readonly fetchImpl: typeof fetch;
  private readonly maxRetries: number;

  constructor(private readonly options: ClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.maxRetries = options.maxRetries ?? 3;
  }

  /** Sends a request and decodes the JSON response body. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = new URL(path, this.options.baseUrl).toString();
    for (let attempt = 0; ; attempt++) {
      const response = await this.fetchImpl(url, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.ok) {
        return (response.status === 204 ? undefined : await response.json()) as T;
      }
      // The server answers 503 while all its database connections are busy, so
      // retry with exponential backoff (250 ms, 500 ms, 1 s, ...) unless it sent Retry-After.
      if (response.status === 503 && attempt < this.maxRetries) {
        const retryAfter = Number(response.headers.get("Retry-After"));
        await sleep(retryAfter > 0 ? retryAfter * 1000 : 250 * 2 ** attempt);
        continue;
      }
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      throw new ApiError(response.status, await response.text(), headers);
    }
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>("GET", path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>("POST", path, body);
  }
}
