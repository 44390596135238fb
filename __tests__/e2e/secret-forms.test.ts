// The built action, against a Mintlify API that echoes the secrets back in other forms (base64 of
// the request's Authorization header, URL-encoded, credentials written into a URL) and a fake
// GitHub: no form of any secret reaches the log, the outputs, the job summary or GitHub.
import { afterEach, describe, expect, it } from '@jest/globals'
import { base64, base64url, leakedForms } from '../../__fixtures__/secret-forms.js'
import { onEvent, QUICK, runAction, simulators, type Simulator } from './harness.js'

const sims = simulators()
afterEach(() => sims.closeAll())

const KEY = 'mint_secret_forms_key_0123456789'
const WORKFLOW_TOKEN = 'ghs_secret_forms_workflow_0123'
const DOCS_TOKEN = 'ghp_secret_forms_docs_token_0123'
const SECRETS = [KEY, WORKFLOW_TOKEN, DOCS_TOKEN]
/** A password written into a URL: registered nowhere, still never handed on. */
const PASSWORD = 'hunter2-url-password'
const CODE = 'Codertocat/Hello-World'
const DOCS = 'acme/docs'

/** Everything a run wrote where a person or a later step can read it, less the mask commands. */
function runText(run: Awaited<ReturnType<typeof runAction>>): Record<string, string> {
  return {
    log: run.stdout.replace(/^::add-mask::.*$/gm, ''),
    stderr: run.stderr,
    summary: run.summary,
    outputs: JSON.stringify(run.outputs)
  }
}

/** What GitHub received: each request's path and body (its headers carry the token, unpublished). */
function sentToGitHub(sim: Simulator): Record<string, string> {
  return Object.fromEntries(
    sim.requests
      .filter((r) => !r.path.startsWith('/v2/'))
      .map((r, i) => [`${i} ${r.method} ${r.path}`, `${r.path}\n${r.body}`])
  )
}

/** The forms of a secret (or the password) in each written text, by where they were found. */
function leaks(texts: Record<string, string>): Record<string, string[]> {
  const found: Record<string, string[]> = {}
  for (const [where, text] of Object.entries(texts)) {
    const forms = SECRETS.flatMap((secret) => leakedForms(text, secret))
    if (text.includes(PASSWORD)) forms.push(PASSWORD)
    if (forms.length > 0) found[where] = forms
  }
  return found
}

/** The fake GitHub's tokens, each reaching its own repository, and the docs pull request. */
const GITHUB = {
  tokens: {
    workflow: { token: WORKFLOW_TOKEN, repos: [CODE] },
    docs: { token: DOCS_TOKEN, user: 'docs-writer[bot]', repos: [DOCS] }
  },
  pulls: { [`${DOCS}#101`]: { user: 'mintlify[bot]' } }
}

/** A job check answered 500 with the request echoed: the key in base64, and URL-encoded. */
const ECHOING_ERROR = {
  status: 500,
  body: JSON.stringify({
    error: `bad request ${base64(`{"authorization":"Bearer ${KEY}","x":1}`)}`,
    key: encodeURIComponent(KEY)
  })
}

/** Runs the bundle on a pull request, with all three secrets, against `sim`. */
function runOnPullRequest(sim: Simulator) {
  return runAction(
    {
      ...QUICK,
      'api-key': KEY,
      'base-url': sim.url,
      'github-token': WORKFLOW_TOKEN,
      'docs-token': DOCS_TOKEN,
      'docs-labels': 'documentation'
    },
    { env: { ...onEvent(sim, 'pull_request', 'pull_request-opened.json').env, RUNNER_DEBUG: '1' } }
  )
}

describe('every secret, in every form the API echoes it', () => {
  it('stays out of the log, outputs, summary, check and comment; so do URL credentials', async () => {
    const sim = await sims.start(
      {
        // The docs pull request link carries the key in base64url: a plain URL all the same.
        prLink: `https://github.com/${DOCS}/pull/101?via=${base64url(`Bearer ${KEY}`)}`,
        jobFields: {
          model: `model (${base64(`x-access-token:${WORKFLOW_TOKEN}`)})`,
          source: {
            repository: `https://bot:${PASSWORD}@github.com/${DOCS}`,
            ref: `mintlify/${base64(`user:${DOCS_TOKEN}`)}`
          }
        },
        faults: { get: [ECHOING_ERROR] },
        github: GITHUB
      },
      { apiKey: KEY }
    )
    const run = await runOnPullRequest(sim)
    expect(run.code).toBe(0)
    const kinds = sim.github.requests.map((r) => r.kind)
    expect(kinds).toEqual(expect.arrayContaining(['createStatus', 'createComment']))

    expect(leaks({ ...runText(run), ...sentToGitHub(sim) })).toEqual({})
    expect(run.outputs['source-repository']).toBe(`https://***@github.com/${DOCS}`)
    expect(JSON.parse(run.outputs.job ?? '')).toMatchObject({
      source: { repository: `https://***@github.com/${DOCS}`, ref: expect.stringContaining('***') }
    })
    expect(run.outputs.model).toMatch(/^model \([A-Za-z0-9+/]*\*\*\*/)
    // A link that carried the key is not handed on.
    expect(run.outputs['pr-link']).toBe('')
  })

  it('stays out of what the docs pull request gets with docs-token', async () => {
    const sim = await sims.start(
      {
        prLink: `https://github.com/${DOCS}/pull/101`,
        jobFields: {
          model: `model (${base64url(`Bearer ${KEY}`)})`,
          source: {
            repository: `https://github.com/${DOCS}`,
            ref: `mintlify/${base64(`x-access-token:${DOCS_TOKEN}`)}`
          }
        },
        faults: { get: [ECHOING_ERROR] },
        github: GITHUB
      },
      { apiKey: KEY }
    )
    const run = await runOnPullRequest(sim)
    expect(run.code).toBe(0)
    expect(run.outputs['pr-link']).toBe(`https://github.com/${DOCS}/pull/101`)
    const docs = sim.github.requests.filter((r) => r.repository === DOCS).map((r) => r.kind)
    expect(docs).toEqual(expect.arrayContaining(['createComment', 'addLabels']))

    expect(leaks({ ...runText(run), ...sentToGitHub(sim) })).toEqual({})
    expect(run.outputs['source-ref']).toMatch(/^mintlify\/[A-Za-z0-9+/]*\*\*\*/)
  })
})
