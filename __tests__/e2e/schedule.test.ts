import { afterEach, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { margin, now, QUICK, ROOT, runAction, simulators, warpTime } from './harness.js'

// Its promise is the pace of the built action on action.yml's defaults (checks from 5 s apart
// growing to 15 s), which only shows over a job long enough to reach the longest interval: 40 s
// of the action's clock, which runs five times as fast as real time here. Not faster: the last
// check may come a second after the longest interval, and a check's real time, multiplied, is
// added to that. The pure schedule is covered in milliseconds by __tests__/schedule.test.ts.
warpTime(5)
const sims = simulators()
afterEach(() => sims.closeAll())

const JOB_MS = 40_000
/** A check of the job on a quiet machine: its request and what the action does with the answer. */
const CHECK_MS = 50

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
    { log: (line) => logged.push({ at: now(), line }) }
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
  // The longest interval and its jitter, and the check itself on a machine `SLOWER` times slower.
  expect(last).toBeLessThanOrEqual(16_000 + margin(CHECK_MS))
})
