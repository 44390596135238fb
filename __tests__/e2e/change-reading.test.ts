// The built action reading the change of a push against the simulator playing GitHub: a new branch
// is read whole, a comparison that is gone is said to be gone, and the commit count the agent is
// given is GitHub's whole count. `paths` skips a job only on a change it read whole.
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  atPace,
  onEvent,
  PUSHED,
  QUICK,
  ROOT,
  runAction,
  simulators,
  type Simulator,
  warpTime,
  WITH_GITHUB,
  warnings
} from './harness.js'

warpTime(WITH_GITHUB)

const sims = simulators()
const dirs: string[] = []
afterEach(async () => {
  await sims.closeAll()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const TOKEN = 'ghs_e2e_token_0123456789'
const REPO = '/repos/Codertocat/Hello-World'
const BEFORE = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e'

/** What the run asked of the code repository (the docs pull request is read in its own). */
const asked = (sim: Simulator) =>
  sim.requests
    .filter((r) => r.path.startsWith(`${REPO}/`))
    .map((r) => `${r.method} ${r.path.split('?')[0]}`)
/**
 * What the run asked to read the change: every request but the one, asked alongside, for the pull
 * requests of the pushed commit (whether it is the agent's own work).
 */
const github = (sim: Simulator) => {
  const all = asked(sim)
  const pulls = all.filter((r) => /\/commits\/[0-9a-f]{40}\/pulls$/.test(r))
  expect(pulls.length).toBeLessThanOrEqual(1)
  return all.filter((r) => !pulls.includes(r))
}
const creates = (sim: Simulator) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/job'))
const sentPrompt = (sim: Simulator) =>
  (JSON.parse(creates(sim)[0]?.body ?? '{}') as { prompt?: string }).prompt ?? ''

const inputs = (sim: Simulator, more: Record<string, string> = {}) => ({
  ...QUICK,
  'base-url': sim.url,
  'github-token': TOKEN,
  comment: 'off',
  check: 'off',
  'reuse-job': 'false',
  ...more
})

/** The runner's variables for `payload`, written to a file of its own. */
function onPayload(sim: Simulator, payload: Record<string, unknown>, ref: string, sha: string) {
  const dir = mkdtempSync(join(tmpdir(), 'event-'))
  dirs.push(dir)
  const path = join(dir, 'event.json')
  writeFileSync(path, JSON.stringify(payload))
  const { env } = onEvent(sim, 'push', 'push-created-branch.json', {
    GITHUB_EVENT_PATH: path,
    GITHUB_REF: ref,
    GITHUB_SHA: sha
  })
  return { env }
}

describe('a new branch is read whole', () => {
  const DOCS = 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1'
  const HEAD = 'b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2'
  const docsFile = {
    filename: 'docs/export.mdx',
    status: 'added' as const,
    patch: '@@ -0,0 +1 @@\n+# Export'
  }
  const codeFile = { filename: 'src/export.ts', patch: '@@ -1 +1 @@\n-let a\n+let b' }
  // GitHub's example push that created a branch, made a push of two commits to a new `feature`.
  const example = JSON.parse(
    readFileSync(join(ROOT, '__fixtures__', 'events', 'push-created-branch.json'), 'utf8')
  ) as Record<string, unknown>
  const commit = (id: string, message: string) => ({ id, message, author: { name: 'Codertocat' } })
  const payload = {
    ...example,
    ref: 'refs/heads/feature',
    after: HEAD,
    compare: 'https://github.com/Codertocat/Hello-World/compare/feature',
    commits: [commit(DOCS, 'Document the export'), commit(HEAD, 'Rename a variable')],
    head_commit: commit(HEAD, 'Rename a variable')
  }
  const branch = (files: (typeof docsFile | typeof codeFile)[]) => ({
    github: {
      // The head commit alone touches no docs; the branch as a whole does.
      commits: [
        { sha: DOCS, message: 'Document the export', files: [docsFile] },
        { sha: HEAD, message: 'Rename a variable', files: [codeFile] }
      ],
      files
    }
  })

  it('paths matching only an earlier commit of the push: the job starts', async () => {
    const sim = await sims.start(branch([docsFile, codeFile]))
    const run = await runAction(
      inputs(sim, { paths: 'docs/**' }),
      onPayload(sim, payload, 'refs/heads/feature', HEAD)
    )
    expect(run.code).toBe(0)
    expect(github(sim)).toEqual([`GET ${REPO}/compare/master...${HEAD}`])
    expect(run.stdout).toMatch(
      /Read the change from the comparison of master\.\.\.b2b2b2b: 2 changed files \(1 GitHub request\)/
    )
    expect(run.outputs.skipped).toBe('false')
    expect(creates(sim)).toHaveLength(1)
    expect(sentPrompt(sim)).toContain('docs/export.mdx')
    expect(sentPrompt(sim)).toContain('Document the export')
    expect(warnings(run.stdout)).toEqual([])
  })

  it('paths matching nothing the whole branch changed: skipped', async () => {
    const sim = await sims.start(branch([codeFile]))
    const run = await runAction(
      inputs(sim, { paths: 'docs/**' }),
      onPayload(sim, payload, 'refs/heads/feature', HEAD)
    )
    expect(run.code).toBe(0)
    expect(creates(sim)).toHaveLength(0)
    expect(run.outputs.skipped).toBe('true')
    expect(run.stdout).toContain('None of the 1 changed files matches paths (docs/**)')
  })
})

describe('a comparison that is gone', () => {
  it('a force-pushed range GitHub answers 404 for: says gone, reads the head commit, skips nothing', async () => {
    const sim = await sims.start({ github: { missingCommits: [BEFORE] } })
    const run = await runAction(inputs(sim, { paths: 'api/**' }), onEvent(sim, 'push', 'push.json'))
    expect(run.code).toBe(0)
    expect(github(sim)).toEqual([
      `GET ${REPO}/compare/${BEFORE}...${PUSHED}`,
      `GET ${REPO}/commits/${PUSHED}`
    ])
    const [warning, ...more] = warnings(run.stdout)
    expect(more).toEqual([])
    expect(warning).toContain('GitHub answered 404 to comparing f95f852...ec26c3e')
    expect(warning).toContain('the commit before the push (f95f852) is gone')
    expect(warning).toContain('force push')
    expect(warning).not.toMatch(/permission|contents: read/)
    expect(run.stdout).toContain(
      'paths: none of the files read matches, but not every commit or file of the change could ' +
        'be read, so the job is not skipped.'
    )
    expect(run.outputs.skipped).toBe('false')
    const prompt = sentPrompt(sim)
    expect(prompt).toContain('src/commands/deploy.ts')
    expect(prompt).toContain('There may be more commits than were read.')
  })
})

describe('the commit count', () => {
  it('a push longer than GitHub lists: the prompt counts from total_commits', async () => {
    const commits = Array.from({ length: 300 }, (_, i) => ({ message: `Step ${i + 1}` }))
    const sim = await sims.start({ github: { commits } })
    // Real time: the simulator writes the comparison (800 kB, a tenth of a second on a quiet
    // machine) before it answers what is asked alongside, the pull requests of the commit, and
    // both must come within GitHub's budgets on a machine `SLOWER` times slower.
    const run = await atPace(1, () => runAction(inputs(sim), onEvent(sim, 'push', 'push.json')))
    expect(run.code).toBe(0)
    // What GitHub answered: the latest 250 commits, and the whole count.
    const answer = (await (
      await fetch(`${sim.url}${REPO}/compare/${BEFORE}...${PUSHED}`, {
        headers: { authorization: `token ${TOKEN}` }
      })
    ).json()) as { total_commits: number; commits: unknown[] }
    expect(answer.commits).toHaveLength(250)
    expect(answer.total_commits).toBe(300)

    const prompt = sentPrompt(sim)
    expect(prompt).toContain(`### Commits\n… and ${answer.total_commits - 50} earlier commits\n`)
    expect(prompt).toContain('Step 300 ')
    expect(prompt).not.toContain('Step 250 ')
    expect(run.stdout).toMatch(/Read the change from the comparison .*: 6\+ changed files/)
  })
})
