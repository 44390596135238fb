/**
 * Octokit as `@actions/github` builds it (the REST API at `GITHUB_API_URL`, the runner's proxy,
 * `token` auth, the orchestration id in the user agent), without importing `@actions/github`:
 * that module reads and parses the event file the moment it is imported, so an unreadable
 * `GITHUB_EVENT_PATH` would end the step before it could report anything. The event is read by
 * `event.ts` instead, which degrades to "nothing known".
 */
import { HttpClient } from '@actions/http-client'
import { Octokit } from '@octokit/core'
import type { OctokitOptions, OctokitPlugin } from '@octokit/core/types'
import { fetch as undiciFetch, type RequestInfo, type RequestInit } from 'undici'

/** The REST API the workflow's GitHub serves: GitHub Enterprise Server sets `GITHUB_API_URL`. */
function apiBaseUrl(env: NodeJS.ProcessEnv): string {
  return env.GITHUB_API_URL || 'https://api.github.com'
}

/** The user agent with the runner's orchestration id, as `@actions/github` sends it. */
function userAgentOf(base: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const id = env.ACTIONS_ORCHESTRATION_ID?.trim()
  if (!id) return base
  const tag = `actions_orchestration_id/${id.replace(/[^a-z0-9_.-]/gi, '_')}`
  if (base?.includes(tag)) return base
  return base ? `${base} ${tag}` : tag
}

/**
 * An Octokit with `plugins` for `token`, with the same defaults as `@actions/github`'s
 * `getOctokit`: requests go through the proxy the runner configures (`HTTPS_PROXY`, `NO_PROXY`).
 */
export function getOctokit(
  token: string,
  options: OctokitOptions = {},
  ...plugins: OctokitPlugin[]
): Octokit {
  const env = process.env
  const baseUrl = options.baseUrl ?? apiBaseUrl(env)
  const WithPlugins = Octokit.plugin(...plugins)
  return new WithPlugins({
    ...options,
    baseUrl,
    auth: `token ${token}`,
    userAgent: userAgentOf(options.userAgent, env),
    request: { fetch: proxyFetch(baseUrl), ...options.request }
  })
}

/** `fetch` through the proxy the runner configures for `baseUrl` (`HTTPS_PROXY`, `NO_PROXY`). */
export function proxyFetch(baseUrl: string): typeof fetch {
  const dispatcher = new HttpClient().getAgentDispatcher(baseUrl)
  return ((url: RequestInfo, init?: RequestInit) =>
    undiciFetch(url, { ...init, dispatcher })) as unknown as typeof fetch
}
