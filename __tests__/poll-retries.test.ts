import { describe, expect, it } from '@jest/globals'
import { ApiError, type Failure } from '../src/base/errors.js'
import type { Job } from '../src/clients/mintlify/job.js'
import { CREATE, POLL } from '../src/clients/mintlify/api.js'
import { send, waitForJob, WARN_AFTER_FAILURES } from '../src/clients/mintlify/poll.js'
import { EPOCH, virtualRuntime } from '../__fixtures__/runtime.js'

const MINUTE = 60_000
const schedule = { deadline: EPOCH + 30 * MINUTE, initialMs: 1000, maxMs: 5000 }
const refused = (attempt: number) =>
  new ApiError(
    `Could not reach https://api.mintlify.com: the connection was refused (attempt ${attempt}).`,
    { kind: 'unsent', permanent: false } satisfies Failure
  )

/** A call that fails `times` times with a refused connection, then answers `job`. */
function failing(times: number, job: Job = { id: 'job_1', status: 'active' }) {
  let calls = 0
  return async (): Promise<Job> => {
    calls++
    if (calls <= times) throw refused(calls)
    return job
  }
}

describe('a run of retried network failures is one warning', () => {
  it('create: the first failure warns, the next attempts go to debug with their details', async () => {
    const rt = virtualRuntime()
    await send(CREATE, failing(4), schedule, rt)
    const warnings = rt.lines.filter((l) => l.level === 'warning')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]?.message).toMatch(/attempt 1\)\. No job was created; trying again in/)
    const debug = rt.lines.filter((l) => l.level === 'debug').map((l) => l.message)
    expect(debug).toHaveLength(3)
    expect(debug[0]).toMatch(/^Attempt 2 to create the agent job failed: .*\(attempt 2\)/)
    expect(debug[2]).toMatch(/^Attempt 4 to create the agent job failed/)
    expect(rt.lines.at(-1)).toEqual({
      level: 'info',
      message: 'The request to create the agent job went through on attempt 5.'
    })
  })

  it('a request that fails every time ends with one warning and the error', async () => {
    const rt = virtualRuntime()
    const error = await send(CREATE, failing(100), schedule, rt).catch((e: unknown) => e)
    expect((error as Error).message).toMatch(/gave up after 6 attempts/)
    expect(rt.lines.filter((l) => l.level === 'warning')).toHaveLength(1)
    expect(rt.lines.filter((l) => l.level === 'info')).toHaveLength(0)
  })

  it('a read names what it reads when it goes through after failures', async () => {
    const rt = virtualRuntime()
    await send(POLL, failing(1), schedule, rt)
    expect(rt.lines.at(-1)?.message).toBe(
      'The request to read the agent job went through on attempt 2.'
    )
  })

  it('says nothing when the first attempt goes through', async () => {
    const rt = virtualRuntime()
    await send(CREATE, failing(0), schedule, rt)
    expect(rt.lines).toEqual([])
  })

  it('polls: ten failures in a row give one info line, one warning, and a line when it recovers', async () => {
    const rt = virtualRuntime()
    const done: Job = { id: 'job_1', status: 'completed' }
    await waitForJob({ id: 'job_1', status: 'active' }, failing(10, done), schedule, rt)
    const shown = rt.lines.filter((l) => l.level !== 'debug')
    expect(shown.map((l) => l.level)).toEqual(['info', 'warning', 'info', 'info'])
    expect(shown[0]?.message).toMatch(/^Checking the job failed \(1 in a row\)/)
    expect(shown[1]?.message).toMatch(
      new RegExp(
        `^Checking the job failed \\(${WARN_AFTER_FAILURES} in a row\\).*only in debug\\.$`
      )
    )
    expect(shown[2]?.message).toBe('Checking the job works again after 10 failures in a row.')
    expect(shown[3]?.message).toMatch(/^Job status: completed/)
    expect(rt.lines.filter((l) => l.message.startsWith('Checking the job failed'))).toHaveLength(10)
  })
})
