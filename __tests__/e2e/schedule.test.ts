import { afterEach, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { QUICK, ROOT, runAction, simulators } from './harness.js'

const sims = simulators()
afterEach(() => sims.closeAll())

// This test waits on real time, about 40-55 s, on purpose: its promise is the pace of the built
// action on action.yml's defaults (checks from 5 s apart growing to 15 s), which only shows over a
// job long enough to reach the longest interval. The bundle has no clock a test can move; the pure
// schedule is covered in milliseconds by __tests__/schedule.test.ts.
const JOB_MS = 40_000

/** The defaults action.yml gives `names`, passed as a runner passes them: as inputs. */
function actionDefaults(...names: string[]): Record<string, string> {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>
  }
  return Object.fromEntries(names.map((name) => [name, action.inputs[name]?.default ?? '']))
}

it('notices a job that ends 40 s in within 16 s of its end, on the default schedule', async () => {
  const logged: { at: number; line: string }[] = []
  const sim = await sims.start(
    { jobDurationMs: JOB_MS },
    { log: (line) => logged.push({ at: Date.now(), line }) }
  )
  const pace = actionDefaults('poll-interval', 'max-poll-interval')
  const run = await runAction({ ...QUICK, ...pace, 'base-url': sim.url, timeout: '2m' })

  expect(run.code).toBe(0)
  expect(run.outputs.status).toBe('completed')
  const [job, ...others] = [...sim.jobs.values()]
  expect(others).toHaveLength(0)
  // The simulator ends a job `jobDurationMs` after it started, on the clock its log is read by.
  const endedAt = (job?.activeSince ?? NaN) + JOB_MS
  const checks = logged.filter(({ line }) => /^GET \/v2\/agent\/[^ ]+\/job\/[^ ]+ 200/.test(line))
  expect(checks.length).toBeGreaterThanOrEqual(2)
  // The last check saw the job completed and the one before still active: it noticed the end.
  const [before, last] = checks.slice(-2).map(({ at }) => at - endedAt)
  expect(before).toBeLessThan(0)
  expect(last).toBeGreaterThanOrEqual(0)
  expect(last).toBeLessThanOrEqual(16_000)
}, 90_000)
