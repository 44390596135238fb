/**
 * Links in the markup the action writes: only a URL `safeLink` accepts becomes an `<a href>`;
 * anything else is shown as escaped text. Pure.
 */
import { API_KEYS_PAGE } from '../base/errors.js'
import { cut, escapeMarkup, safeLink, type SafeLink } from '../base/sanitize.js'
import { redact } from '../base/secrets/redact.js'
import { parsePullLink, pullName } from '../given/ref.js'

/** `<a href>` around `text` (markup); a `SafeLink`'s href needs no escaping in the attribute. */
export function anchor(link: SafeLink, text: string): string {
  return `<a href="${link.href}">${text}</a>`
}

/** `text` (markup) as a link to `url` where `safeLink` accepts it, else as it is. */
export function linked(url: string | null | undefined, text: string): string {
  const link = safeLink(url)
  return link ? anchor(link, text) : text
}

/** A URL from the job as a link showing its address, or escaped text without credentials. */
export function urlMarkup(url: string | null | undefined, max = 200): string | undefined {
  if (!url) return undefined
  const link = safeLink(url)
  if (link) return anchor(link, escapeMarkup(link.href, max))
  return escapeMarkup(url.replace(/^([a-z][a-z0-9+.-]*:\/*)[^/?#]*@/i, '$1***@'), max)
}

/**
 * The docs pull request as a link named `acme/docs#110`, since a bare `#110` reads as one of the
 * code repository; a link that is not a pull request page shows its address.
 */
export function pullMarkup(link: SafeLink): string {
  const ref = parsePullLink(link.href, new URL(link.href).origin)
  // Owner and repository names are letters, digits, `-`, `_` and `.`: nothing to escape. Text
  // inside a link is never read as a reference, so the `#` stays as it is.
  return anchor(link, ref ? pullName(ref) : escapeMarkup(link.href, 200))
}

/** A message as escaped markup, cut to `max`, with each mention of the API keys page a link. */
export function messageMarkup(text: string, max: number): string {
  const page = safeLink(API_KEYS_PAGE)
  const whole = cut(redact(text), max)
  if (!page) return escapeMarkup(whole, Number.POSITIVE_INFINITY)
  return whole
    .split(API_KEYS_PAGE)
    .map((part) => escapeMarkup(part, Number.POSITIVE_INFINITY))
    .join(anchor(page, escapeMarkup(API_KEYS_PAGE)))
}
