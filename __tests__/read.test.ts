// The read stage against fakes of GitHub and Mintlify: what it asks, and that what it could not
// learn is `unknown` (failed, or not asked), never left out.
import { describe, expect, it } from '@jest/globals'
import type { GitHubApi, History } from '../src/clients/github/api.js'
import { RECORD_PAGE, recordSuffix } from '../src/clients/github/branch-record.js'
import type { Settings } from '../src/given/inputs.js'
import type { MintlifyApi } from '../src/clients/mintlify/api.js'
import { checkName } from '../src/report/check.js'
import { kindOf } from '../src/kinds/registry.js'
import type { ReadContext } from '../src/run/read/read.js'
import { StepTime, type Step } from '../src/run/step.js'
import { AGENT, HEAD, push } from './decide-inputs.js'

const SETTINGS: Settings = {
  prompt: 'Document it',
  projectId: 'proj_1',
  apiKey: 'mint_x',
  baseUrl: new URL('https://api.example.com'),
  wait: true,
  timeoutMs: 60_000,
  pollIntervalMs: 10,
  maxPollIntervalMs: 20,
  failOnNoPr: false,
  githubToken: 'ghs_x',
  context: 'auto',
  contextMaxChars: 1000,
  paths: [],
  jobId: '',
  comment: 'off',
  check: 'auto',
  preview: 'auto',
  reuseJob: true,
  dryRun: false,
  docsToken: '',
  agentAccounts: [AGENT],
  docsReviewers: { users: [], teams: [], author: false },
  docsLabels: [],
  onCodeClosed: 'nothing',
  warnings: []
}
const CONTEXT = checkName(SETTINGS.projectId)
// As GitHub names the workflow token's account: `viewer` with `[bot]`, a status's creator without.
const VIEWER = { login: 'github-actions[bot]', id: 41898282, bot: true }
const CREATOR = { login: 'github-actions', id: 41898282, bot: true }

/** What a run reads, through the kind its event is, as the run reads it. */
function readRun(
  settings: ReadContext['settings'],
  event: ReadContext['event'],
  readers: ReadContext['readers'],
  api: ReadContext['api'],
  step: ReadContext['step'],
  context: string
) {
  return kindOf(event).read({ settings, event, readers, api, step, context })
}

function stepFor(): Step & { said: string[] } {
  const signal = new AbortController().signal
  const said: string[] = []
  const log = {
    info: (m: string) => said.push(m),
    warning: (m: string) => said.push(m),
    debug: () => {}
  }
  // Its time is the settings' from now, and listens for no signal from the runner.
  const time = new StepTime({ sleep: async () => {} })
  time.release()
  time.begin(SETTINGS)
  return {
    said,
    now: Date.now,
    sleep: async () => {},
    random: () => 0,
    signal,
    log,
    time,
    gitHub: () => {
      throw new Error('not in these tests')
    },
    mintlify: () => {
      throw new Error('not in these tests')
    }
  }
}

/** A branch's history, newest last, with this action's record on `recordAt`; pages by cursor. */
function historyOf(shas: string[], recordAt: string, jobId = 'job_rec') {
  const calls: (string | undefined)[] = []
  const history = async (
    _o: string,
    _r: string,
    sha: string,
    count: number,
    after: string | undefined
  ): Promise<History> => {
    calls.push(after)
    const from = Number(after ?? 0)
    const all = shas.slice(0, shas.indexOf(sha) + 1).reverse()
    const commits = all.slice(from, from + count).map((oid) => ({
      sha: oid,
      statuses:
        oid === recordAt
          ? [
              {
                context: CONTEXT,
                creator: CREATOR,
                description: `Docs pull request ready${recordSuffix({ jobId, branch: 'main', since: undefined }) ?? ''}`
              }
            ]
          : []
    }))
    const next = from + count < all.length ? String(from + count) : undefined
    return { viewer: VIEWER, commits, next }
  }
  return { history, calls }
}

const mintlify = (job: object): MintlifyApi =>
  ({ getJob: async () => job }) as unknown as MintlifyApi

describe('the read stage', () => {
  it("asks a push's pull requests whatever comment says; a 502 is unknown, and no job is read", async () => {
    const { history } = historyOf([HEAD], HEAD)
    let jobReads = 0
    const github = {
      commitPulls: async () => Promise.reject(new Error('HTTP 502')),
      history
    } as unknown as GitHubApi
    const api = { getJob: async () => (jobReads++, { id: 'job_rec', status: 'active' }) }
    const { facts } = await readRun(
      SETTINGS,
      push(),
      { workflow: github },
      api as unknown as MintlifyApi,
      stepFor(),
      CONTEXT
    )
    expect(facts.pulls).toMatchObject({ known: false, cause: 'failed' })
    expect(facts.job).toBeUndefined()
    expect(jobReads).toBe(0)
    // The record is read all the same: a run that starts nothing carries it forward.
    expect(facts.branch?.record).toMatchObject({ known: true, value: { jobId: 'job_rec' } })
  })

  it('a token refused the pull requests of a commit: not asked, said once, as without a token', async () => {
    const refused = Object.assign(new Error('Resource not accessible by integration'), {
      status: 403,
      response: { headers: {} }
    })
    const github = {
      commitPulls: async () => Promise.reject(refused),
      history: historyOf([HEAD], HEAD).history
    } as unknown as GitHubApi
    const step = stepFor()
    const { facts } = await readRun(
      SETTINGS,
      push(),
      { workflow: github },
      undefined,
      step,
      CONTEXT
    )
    expect(facts.pulls).toMatchObject({ known: false, cause: 'not-asked' })
    expect(step.said.filter((line) => line.includes('pull-requests: read'))).toHaveLength(1)
  })

  it('without a token the pull requests are not asked, and say so', async () => {
    const { facts } = await readRun(SETTINGS, push(), {}, undefined, stepFor(), CONTEXT)
    expect(facts.pulls).toMatchObject({ known: false, cause: 'not-asked' })
    expect(facts.prepared?.prompt).toContain('Document it')
  })

  it('finds the branch’s record pages back, each page starting where the last ended', async () => {
    const shas = Array.from({ length: RECORD_PAGE * 2 + 20 }, (_, i) =>
      i.toString(16).padStart(40, 'e')
    )
    const head = shas.at(-1) ?? ''
    const { history, calls } = historyOf(shas, shas[3] ?? '')
    const github = { commitPulls: async () => [], history } as unknown as GitHubApi
    const event = push(['octocat'], { after: head, sha: head })
    const { facts } = await readRun(
      SETTINGS,
      event,
      { workflow: github },
      undefined,
      stepFor(),
      CONTEXT
    )
    expect(facts.branch?.record).toMatchObject({
      known: true,
      value: { jobId: 'job_rec', told: shas[3] }
    })
    expect(calls).toEqual([undefined, String(RECORD_PAGE), String(RECORD_PAGE * 2)])
  })

  it('a dry run reads no job: its state is unknown, not asked', async () => {
    const { history } = historyOf([HEAD], HEAD)
    const github = { commitPulls: async () => [], history } as unknown as GitHubApi
    const { facts } = await readRun(
      SETTINGS,
      push(),
      { workflow: github },
      undefined,
      stepFor(),
      CONTEXT
    )
    expect(facts.job).toMatchObject({
      jobId: 'job_rec',
      from: 'branch',
      phase: { known: false, cause: 'not-asked' },
      docs: { known: false, cause: 'not-asked' }
    })
  })

  it('a docs pull request that cannot be read is unknown, with the reason, and its link kept', async () => {
    const { history } = historyOf([HEAD], HEAD)
    const github = {
      commitPulls: async () => [],
      history,
      getPull: async () => Promise.reject(new Error('HTTP 502'))
    } as unknown as GitHubApi
    const job = {
      id: 'job_rec',
      status: 'completed',
      prLink: 'https://github.com/acme/docs/pull/5',
      source: { repository: 'https://github.com/acme/docs' }
    }
    const { facts } = await readRun(
      SETTINGS,
      push(),
      { workflow: github },
      mintlify(job),
      stepFor(),
      CONTEXT
    )
    expect(facts.job?.phase).toEqual({ known: true, value: 'completed' })
    expect(facts.job?.docs).toMatchObject({ known: false, cause: 'failed' })
    expect(facts.job?.docs.known === false && facts.job.docs.why).toContain('acme/docs#5')
    expect(facts.job?.docsRef).toEqual({ owner: 'acme', repo: 'docs', number: 5 })
  })

  it("the agent's own push reads nothing more", async () => {
    const github = {} as GitHubApi
    const { facts } = await readRun(
      SETTINGS,
      push([AGENT]),
      { workflow: github },
      undefined,
      stepFor(),
      CONTEXT
    )
    expect(facts).toEqual({ pulls: expect.objectContaining({ known: false, cause: 'not-asked' }) })
  })
})
