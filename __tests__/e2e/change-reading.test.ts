// The built action reading the change of a push against the simulator playing GitHub: the commit
// count the agent is given is GitHub's whole count.
import { afterEach, describe, expect, it } from '@jest/globals'
import { onEvent, PUSHED, QUICK, runAction, simulators, type Simulator } from './harness.js'

const sims = simulators()
afterEach(() => sims.closeAll())

const TOKEN = 'ghs_e2e_token_0123456789'
const REPO = '/repos/Codertocat/Hello-World'
const BEFORE = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e'

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

describe('the commit count', () => {
  it('a push longer than GitHub lists: the prompt counts from total_commits', async () => {
    const commits = Array.from({ length: 300 }, (_, i) => ({ message: `Step ${i + 1}` }))
    const sim = await sims.start({ github: { commits } })
    const run = await runAction(inputs(sim), onEvent(sim, 'push', 'push.json'))
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
