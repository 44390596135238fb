import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  describeHttpFailure,
  describeNetworkError,
  describeUnreachable,
  quote,
  refusal,
  serverText
} from '../src/clients/mintlify/explain.js'

/** An error shaped as undici throws it: `fetch failed`, with the cause that says why. */
function fetchFailed(message: string, code?: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) })
}

const OPENSSL =
  '403D64C56A7F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version ' +
  'number:../deps/openssl/openssl/ssl/record/methods/tlsany_meth.c:77:\n'

describe('describeUnreachable', () => {
  it.each([
    ['a refused connection', 'connect ECONNREFUSED 10.0.0.5:443', 'ECONNREFUSED', /was refused/],
    ['an unknown host', 'getaddrinfo ENOTFOUND api.example.test', 'ENOTFOUND', /was not found/],
    ['a DNS lookup that failed for now', 'getaddrinfo EAI_AGAIN', 'EAI_AGAIN', /runner's DNS/],
    ['no route', 'connect EHOSTUNREACH', 'EHOSTUNREACH', /no route to/],
    ['a slow connect', 'Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT', /timed out/]
  ])('%s names the URL tried, base-url and the code', (_, message, code, says) => {
    const text = describeUnreachable(
      'https://api.example.test/mintlify',
      fetchFailed(message, code)
    )
    expect(text).toMatch(/^Could not reach https:\/\/api\.example\.test\/mintlify: /)
    expect(text).toContain(`(${code})`)
    expect(text).toContain('base-url')
    expect(text).toMatch(says)
  })

  it("says a TLS mismatch with its code, never OpenSSL's own lines", () => {
    const error = fetchFailed(OPENSSL, 'ERR_SSL_WRONG_VERSION_NUMBER')
    const text = describeUnreachable('https://127.0.0.1:8787', error)
    expect(refusal(error)).toBe('tls-handshake')
    expect(text).toContain('TLS handshake failed before anything was sent')
    expect(text).toContain('(ERR_SSL_WRONG_VERSION_NUMBER)')
    expect(text).toContain('Check base-url: it says https://')
    expect(text).not.toMatch(/error:0A|SSL routines|openssl|tlsany/)
  })

  it('keeps certificate advice, and names the host base-url should fix', () => {
    const error = fetchFailed(
      "Hostname/IP does not match certificate's altnames",
      'ERR_TLS_CERT_ALTNAME_INVALID'
    )
    const text = describeUnreachable('https://localhost:8443', error)
    expect(text).toContain('not for this host name')
    expect(text).toContain("check base-url's host")
  })

  it('says how long a request that never left waited', () => {
    expect(describeUnreachable('https://api.mintlify.com', new Error('aborted'), '30s')).toBe(
      'Could not reach https://api.mintlify.com: no answer within 30s. Check base-url, and ' +
        'that the runner may reach that host: a firewall may drop the connection, or the ' +
        'network may allow only a proxy (set HTTPS_PROXY).'
    )
  })

  it('falls back to the error itself, still naming base-url', () => {
    const text = describeUnreachable('https://api.mintlify.com', fetchFailed('something odd'))
    expect(text).toBe(
      'Could not reach https://api.mintlify.com: something odd. Check base-url, and the ' +
        "runner's network and proxy settings."
    )
  })
})

describe('describeNetworkError', () => {
  it('drops OpenSSL lines and keeps the code', () => {
    expect(describeNetworkError(fetchFailed(OPENSSL, 'ERR_SSL_DECRYPTION_FAILED'))).toBe(
      'a TLS error (ERR_SSL_DECRYPTION_FAILED)'
    )
    expect(
      describeNetworkError(
        fetchFailed('error:0A00010B:SSL routines::wrong version number', 'ERR_SSL_X')
      )
    ).toBe('a TLS error (ERR_SSL_X)')
  })

  it('keeps a message that names its code once', () => {
    expect(
      describeNetworkError(fetchFailed('connect ECONNREFUSED 1.2.3.4:443', 'ECONNREFUSED'))
    ).toBe('connect ECONNREFUSED 1.2.3.4:443')
  })
})

describe('quote: a message is cut at the end of a word, never inside one', () => {
  /**
   * Plain words, as a server's message has them, that quoting leaves as they are: none starts
   * with `:`, since a line opening with `::` is a workflow command that quoting breaks up.
   */
  const words = fc.array(fc.stringMatching(/^[A-Za-z0-9.,;()'-][A-Za-z0-9.,:;()'-]{0,29}$/), {
    minLength: 1,
    maxLength: 60
  })

  it('keeps whole words, says how much it left out, and only a first word too long is split (property)', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 10, max: 300 }), (list, max) => {
        const text = list.join(' ')
        const quoted = quote(text, max)
        if (text.length <= max) return quoted === text
        const match = /^(.*)… \((\d+) more characters\)$/s.exec(quoted)
        if (!match) return false
        const kept = match[1] ?? ''
        const endsAWord = kept !== '' && text[kept.length] === ' '
        const firstWordTooLong = !text.slice(0, max + 1).includes(' ')
        return (
          text.startsWith(kept) &&
          kept.length <= max &&
          Number(match[2]) === text.length - kept.length &&
          (endsAWord || (firstWordTooLong && kept.length === max))
        )
      })
    )
  })

  it("cuts the server's words at a word's end in the advice for an HTTP failure", () => {
    const message = `The key ${'is not valid here '.repeat(30)}`
    const said = serverText(JSON.stringify({ error: message }))
    const kept = said.replace(/… \(\d+ more characters\)$/, '')
    expect(kept).not.toBe(said)
    expect(message.startsWith(`${kept} `)).toBe(true)
    const advice = describeHttpFailure('create', 500, said, { projectId: 'p' })
    expect(advice).toContain(`The server said: ${said}`)
  })

  it('never splits an escape it wrote for a control character', () => {
    expect(quote(`${'x'.repeat(9)}\u202e${'y'.repeat(20)}`, 12)).toBe(
      `${'x'.repeat(9)}… (${6 + 20} more characters)`
    )
  })
})
