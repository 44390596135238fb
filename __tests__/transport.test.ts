import { afterEach, describe, expect, it } from '@jest/globals'
import { createServer, type Server } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net'
import { ApiError } from '../src/base/errors.js'
import { MAX_ANSWER_BYTES, createTransport, type Fetch } from '../src/clients/mintlify/transport.js'

const never = new AbortController().signal
const closers: (() => void)[] = []
afterEach(() => {
  for (const close of closers.splice(0)) close()
  delete process.env.HTTPS_PROXY
})

/** A raw TCP server: `onSocket` decides what the client sees, byte for byte. */
async function tcp(onSocket: (socket: Socket) => void): Promise<number> {
  const sockets = new Set<Socket>()
  const server = createTcpServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => undefined)
    onSocket(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => {
    for (const socket of sockets) socket.destroy()
    server.close()
  })
  return (server.address() as AddressInfo).port
}

async function http(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => {
    server.closeAllConnections()
    server.close()
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function transport(base: string, fetch?: Fetch) {
  return createTransport({ baseUrl: new URL(base), apiKey: 'mint_k', userAgent: 'ua', fetch })
}

async function failure(base: string, timeoutMs = 5000, fetch?: Fetch) {
  const error = await transport(base, fetch)
    .send('POST', '/v2/agent/p/job', '{}', timeoutMs, never)
    .catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

describe('what provably happened to a request that got no answer', () => {
  it('a TLS handshake with a plain-HTTP port never sent anything, and retrying cannot help', async () => {
    const base = await http((_, res) => res.end('plain'))
    const error = await failure(base.replace('http:', 'https:'))
    expect(error.failure).toEqual({ kind: 'unsent', permanent: true })
    expect(error.message).toContain('TLS handshake failed before anything was sent')
    expect(error.message).not.toContain('may or may not')
  })

  it('a timeout that fires during the TLS handshake is a request that never left', async () => {
    const port = await tcp(() => undefined) // accepts, then never speaks TLS
    const error = await failure(`https://127.0.0.1:${port}`, 300)
    expect(error.failure).toEqual({ kind: 'unsent', permanent: false })
    expect(error.message).toContain('no answer within 300ms')
  })

  it('a timeout after the request was written may have reached the server', async () => {
    const port = await tcp(() => undefined)
    const error = await failure(`http://127.0.0.1:${port}`, 300)
    expect(error.failure).toEqual({ kind: 'lost' })
  })

  it('an answer cut off in its body was received, not "could not reach"', async () => {
    const port = await tcp((socket) =>
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"id":"j')
        setTimeout(() => socket.destroy(), 20)
      })
    )
    const error = await failure(`http://127.0.0.1:${port}`)
    expect(error.failure).toEqual({ kind: 'lost' })
    expect(error.message).toMatch(/answered HTTP 200, but the answer could not be read/)
    expect(error.message).not.toContain('Could not reach')
  })

  it('a port fetch refuses to use is never sent to', async () => {
    const error = await failure('http://127.0.0.1:6000')
    expect(error.failure).toEqual({ kind: 'unsent', permanent: true })
    expect(error.message).toContain('ports fetch refuses')
  })

  it('a proxy that asks for credentials (407) never forwarded the request', async () => {
    const proxy = await tcp((socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n'))
    )
    process.env.HTTPS_PROXY = `http://127.0.0.1:${proxy}`
    const error = await failure('https://api.example.test')
    expect(error.failure).toEqual({ kind: 'unsent', permanent: true })
    expect(error.message).toContain('put them in the proxy URL')
  })

  it('a loopback base URL never goes through the proxy, *.localhost included', async () => {
    let proxied = 0
    const proxy = await tcp((socket) => {
      proxied++
      socket.destroy()
    })
    process.env.HTTPS_PROXY = `http://127.0.0.1:${proxy}`
    process.env.HTTP_PROXY = `http://127.0.0.1:${proxy}`
    try {
      // The name does not resolve here; what matters is that the proxy was never asked.
      const error = await failure('http://api.localhost:8080')
      expect(error.failure.kind).toBe('unsent')
      expect(proxied).toBe(0)
      // The same transport to another host does use the proxy.
      await failure('http://api.example.test', 1000)
      expect(proxied).toBeGreaterThan(0)
    } finally {
      delete process.env.HTTP_PROXY
    }
  })
})

/** A port on 127.0.0.1 that nothing listens on: bound for a moment, then closed. */
async function closedPort(): Promise<number> {
  const server = createTcpServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('a request that cannot reach the API names base-url and what to check', () => {
  it('a refused connection names the URL tried, with its path, and base-url', async () => {
    const port = await closedPort()
    const error = await failure(`http://127.0.0.1:${port}/mintlify`)
    expect(error.failure).toEqual({ kind: 'unsent', permanent: false })
    expect(error.message).toBe(
      `Could not reach http://127.0.0.1:${port}/mintlify: the connection to 127.0.0.1:${port} ` +
        'was refused (ECONNREFUSED). Check base-url: nothing accepts connections at that host ' +
        'and port (leave base-url out for the hosted API, https://api.mintlify.com).'
    )
  })

  it("TLS to a plain-HTTP port says so without OpenSSL's own error text", async () => {
    const base = await http((_, res) => res.end('plain'))
    const error = await failure(base.replace('http:', 'https:'))
    expect(error.message).toContain(`Could not reach ${base.replace('http:', 'https:')}:`)
    expect(error.message).toContain('(ERR_SSL_WRONG_VERSION_NUMBER)')
    expect(error.message).toContain('Check base-url: it says https://')
    expect(error.message).not.toMatch(/error:[0-9A-F]{8}|SSL routines|deps\/openssl/)
  })

  it('an unknown host names the host and base-url', async () => {
    const unknown: Fetch = async () =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('getaddrinfo ENOTFOUND api.mintlfy.com'), {
            code: 'ENOTFOUND'
          })
        })
      )
    const error = await failure('https://api.mintlfy.com', 5000, unknown)
    expect(error.failure).toEqual({ kind: 'unsent', permanent: false })
    expect(error.message).toMatch(
      /^Could not reach https:\/\/api\.mintlfy\.com: the host name api\.mintlfy\.com was not found \(ENOTFOUND\)\. Check base-url's host name/
    )
  })

  it('a connection closed before the request left names base-url', async () => {
    const port = await tcp((socket) => socket.destroy())
    const error = await failure(`https://127.0.0.1:${port}`)
    expect(error.failure.kind).toBe('unsent')
    expect(error.message).toMatch(new RegExp(`^Could not reach https://127\\.0\\.0\\.1:${port}: `))
    expect(error.message).toContain('base-url')
  })
})

describe('the size of an answer', () => {
  it('refuses a body over the cap without reading it all', async () => {
    const base = await http((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = 'x'.repeat(65_536)
      let sent = 0
      const push = () => {
        while (sent < MAX_ANSWER_BYTES * 4 && res.write(chunk)) sent += chunk.length
        if (sent < MAX_ANSWER_BYTES * 4) res.once('drain', push)
        else res.end()
      }
      push()
    })
    const error = await failure(base)
    expect(error.failure).toEqual({ kind: 'lost' })
    expect(error.message).toContain(`larger than ${MAX_ANSWER_BYTES} bytes`)
  })

  it('refuses a declared Content-Length over the cap at once', async () => {
    const port = await tcp((socket) =>
      socket.once('data', () =>
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${MAX_ANSWER_BYTES + 1}\r\n\r\n{`)
      )
    )
    const error = await failure(`http://127.0.0.1:${port}`)
    expect(error.message).toContain('larger than')
  })
})

describe('a fetch handed in', () => {
  it('counts as sent only when it says so', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
    const notSent: Fetch = async () => Promise.reject(reset)
    const sent: Fetch = async (_url, _init, markSent) => {
      markSent()
      return Promise.reject(reset)
    }
    expect((await failure('https://api.example.test', 5000, notSent)).failure.kind).toBe('unsent')
    expect((await failure('https://api.example.test', 5000, sent)).failure.kind).toBe('lost')
  })
})
