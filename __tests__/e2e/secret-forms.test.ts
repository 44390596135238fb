// The built action, against a Mintlify API that echoes the secrets back in the forms the action
// redacts (base64 of the request's Authorization header, URL-encoded in either case and twice,
// JSON-escaped, wrapped over lines, credentials written into a URL) and a fake GitHub: no such form
// of any secret reaches the log, the outputs, the job summary or GitHub.
import { describe, expect, it } from '@jest/globals'
import { base64, base64url, giveaways, KEPT, leakedForms } from '../../__fixtures__/secret-forms.js'
import {
  onEvent,
  QUICK,
  runAction,
  type ActionRun,
  type Simulator,
  WITH_GITHUB,
  CODE,
  endToEnd
} from './harness.js'

const sims = endToEnd(WITH_GITHUB)

const KEY = 'mint_secret_forms_key_0123456789'
const WORKFLOW_TOKEN = 'ghs_secret_forms_workflow_0123'
const DOCS_TOKEN = 'ghp_secret_forms_docs_token_0123'
const SECRETS = [KEY, WORKFLOW_TOKEN, DOCS_TOKEN]
/** A password written into a URL: registered nowhere, still never handed on. */
const PASSWORD = 'hunter2-url-password'
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
    // A repository link with credentials, and a branch name cut by the redaction, are not in the
    // one shape the action takes them in: they are left out, and said nowhere.
    expect(run.outputs['source-repository']).toBe('')
    expect(JSON.parse(run.outputs.job ?? '')).toMatchObject({
      source: { repository: null, ref: null }
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
    expect(run.outputs['source-ref']).toBe('')
  })
})

/** `KEY` in a kept form. */
const keyAs = (form: keyof typeof KEPT, n = 0) => KEPT[form](KEY, n)

/** Every secret's giveaways (any form, any 16 characters of it) in each text, by where found. */
function giveawaysIn(texts: Record<string, string>): Record<string, string[]> {
  const found: Record<string, string[]> = {}
  for (const [where, text] of Object.entries(texts)) {
    const ways = SECRETS.flatMap((secret) => giveaways(text, secret))
    if (ways.length > 0) found[where] = ways
  }
  return found
}

/** What a crash would print: a stack frame, a line of the bundle, Node's own last words. */
function expectNoCrash(run: ActionRun): void {
  const printed = `${run.stdout}\n${run.stderr}`
  expect(printed).not.toMatch(/^\s+at /m)
  expect(printed).not.toMatch(/index\.js:\d+/)
  expect(printed).not.toMatch(/Node\.js v\d+/)
}

describe('the key in the forms the action redacts, in the job and in errors', () => {
  it('reaches no GitHub request, output, summary or log line', async () => {
    const sim = await sims.start(
      {
        // In the shape of a pull request link, the key percent-encoded as its repository's name.
        prLink: `https://github.com/acme/${keyAs('everyByte')}/pull/101`,
        jobFields: {
          model: keyAs('wrapped', 1),
          message: `agent failed: ${keyAs('jsonUnicode')}`,
          source: {
            repository: `https://github.com/acme/${keyAs('everyByte', 1)}`,
            ref: `mintlify/${keyAs('someCharacters', 5)}`
          }
        },
        faults: {
          get: [
            {
              status: 500,
              body: JSON.stringify({
                error: `bad key ${keyAs('jsonEscaped')}`,
                detail: `wrapped: ${keyAs('jsonWrapped', 4)}`,
                again: keyAs('urlEncodedTwice')
              })
            }
          ]
        },
        github: GITHUB
      },
      { apiKey: KEY }
    )
    const run = await runOnPullRequest(sim)
    expectNoCrash(run)
    expect(run.code).toBe(0)
    const kinds = sim.github.requests.map((r) => r.kind)
    expect(kinds).toEqual(expect.arrayContaining(['createStatus', 'createComment']))
    // The answer's error was retried past, and said so in the log.
    expect(run.stdout).toMatch(/HTTP 500/)

    expect(giveawaysIn({ ...runText(run), ...sentToGitHub(sim) })).toEqual({})
    expect(run.outputs['pr-link']).toBe('')
    expect(run.outputs.job).toContain('***')
  })

  it('in the job id, URL-encoded or JSON-escaped, reaches nothing', async () => {
    for (const id of [`job_${keyAs('everyByte')}`, `job.${keyAs('jsonUnicode')}`]) {
      const sim = await sims.start({ jobIds: [id], github: GITHUB }, { apiKey: KEY })
      const run = await runAction(
        { ...QUICK, 'api-key': KEY, 'base-url': sim.url, wait: 'false' },
        { env: { RUNNER_DEBUG: '1' } }
      )
      expectNoCrash(run)
      expect(sim.requests.length).toBeGreaterThan(0)
      expect(giveawaysIn({ ...runText(run), ...sentToGitHub(sim) })).toEqual({})
      await sims.closeAll()
    }
  })
})

describe('a secret input of 100,000 characters', () => {
  it('gives at worst a clear error: no stack trace, and not its text', async () => {
    let seed = 7
    let key = 'mint_'
    while (key.length < 100_000) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      key += 'abcdefghijklmnopqrstuvwxyz0123456789'[(seed >>> 16) % 36]
    }
    const sim = await sims.start({}, { apiKey: key })
    const run = await runAction({ ...QUICK, 'api-key': key, 'base-url': sim.url })
    expectNoCrash(run)
    expect([0, 1]).toContain(run.code)
    const written = runText(run)
    // Any 16 characters in a row of it would be a giveaway; a slice of it is enough to look for.
    const parts = Array.from({ length: 200 }, (_, i) => key.slice(i * 499, i * 499 + 16))
    for (const [where, text] of Object.entries(written)) {
      expect({ where, found: parts.filter((part) => text.includes(part)) }).toEqual({
        where,
        found: []
      })
    }
    // A refusal (an input too long, or a header the server will not take) is one error line.
    expect(run.stdout.match(/^::error title=Mintlify agent::/gm) ?? []).toHaveLength(
      run.code === 1 ? 1 : 0
    )
  })
})
