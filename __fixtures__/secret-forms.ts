/**
 * The forms a secret can leave in (what the action writes must hold none of them), and a check
 * that reads a secret back from base64 wherever it sits. Shared by the redaction's unit tests and
 * the end-to-end test of everything the built action writes.
 */

/** Base64 of `text`'s UTF-8 bytes. */
export function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64')
}

/** Base64url, without padding, as JWTs and many APIs write it. */
export function base64url(text: string): string {
  return base64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** How a token is wrapped before it is base64-encoded: a bearer header, basic auth. */
export const WRAPPERS: readonly ((secret: string) => string)[] = [
  (s) => s,
  (s) => `Bearer ${s}`,
  (s) => `x-access-token:${s}`,
  (s) => `user:${s}`,
  (s) => `${s}:x-oauth-basic`
]

/**
 * Every form of `secret` that must not be written: itself, URL-encoded, JSON-escaped, and base64
 * (standard, unpadded, url-safe) of it and of each wrapper.
 */
export function formsOf(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    ...WRAPPERS.flatMap((wrap) => {
      const encoded = base64(wrap(secret))
      return [encoded, encoded.replace(/=+$/, ''), base64url(wrap(secret))]
    })
  ]
}

/**
 * Whether some run of base64 (or base64url) characters in `text`, read from any of its four
 * character offsets, decodes to bytes holding `secret`: the secret can be read back from it.
 */
export function decodesToSecret(text: string, secret: string): boolean {
  const wanted = Buffer.from(secret, 'utf8')
  for (const run of text.match(/[A-Za-z0-9+/_-]{4,}/g) ?? []) {
    const standard = run.replace(/-/g, '+').replace(/_/g, '/')
    for (let offset = 0; offset < 4; offset++) {
      // Node decodes an unpadded end too, so a secret in the last group is found.
      if (Buffer.from(standard.slice(offset), 'base64').includes(wanted)) return true
    }
  }
  return false
}

/** The forms of `secret` found in `text`, and `base64` when it decodes from a run of it. */
export function leakedForms(text: string, secret: string): string[] {
  const found = formsOf(secret).filter((form) => text.includes(form))
  return decodesToSecret(text, secret) ? [...found, 'base64'] : found
}
