/** Facts about the addresses the action talks to, shared by the inputs and the transport. */

/**
 * Whether `hostname` (as `URL` gives it) is this machine. Plain http is accepted only for such a
 * host, and requests to it never go through a proxy: both decisions use this one definition, so a
 * key sent in clear text can never leave the machine.
 */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase()
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  )
}

/**
 * Encodes a value as exactly one path segment. `.` and `..` cannot be one: every URL parser
 * resolves them (even percent-encoded), so they are refused rather than sent somewhere else.
 */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new Error(`"${value}" cannot be used as a path segment`)
  }
  return encodeURIComponent(value)
}
