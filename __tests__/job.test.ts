import { describe, expect, it } from '@jest/globals'
import { classifyStatus, mergeJob, parseJob, STATUS_TABLE } from '../src/clients/mintlify/job.js'

describe('parseJob', () => {
  it('reads a full job, and hands on no field it does not name', () => {
    const job = parseJob({
      id: 'job_1',
      status: 'completed',
      model: 'claude',
      prLink: 'https://github.com/acme/docs/pull/3',
      source: { repository: 'https://github.com/acme/docs', ref: 'main', token: 'x' },
      createdAt: '2026-11-22T00:00:00Z',
      archivedAt: null,
      extra: 42
    })
    expect(job).toEqual({
      id: 'job_1',
      status: 'completed',
      model: 'claude',
      prLink: 'https://github.com/acme/docs/pull/3',
      source: { repository: 'https://github.com/acme/docs', ref: 'main' },
      createdAt: '2026-11-22T00:00:00Z',
      archivedAt: null
    })
    expect(
      JSON.stringify(mergeJob(job ?? {}, { status: 'active', note: 'x' } as never))
    ).not.toMatch(/extra|token|note/)
  })

  it('accepts a job with any one of its fields', () => {
    expect(parseJob({ status: 'active' })).toEqual({ status: 'active' })
  })

  it.each([
    ['an empty object', {}],
    ['an object with none of the job fields', { ok: true, data: [] }],
    ['an error body', { error: 'Job store unavailable' }],
    ['an error body that also has a job field', { error: 'x', status: 'completed' }]
  ])('refuses %s, which is not a job', (_, body) => {
    expect(parseJob(body)).toBeUndefined()
  })

  it('reads a field of the wrong type as absent instead of failing', () => {
    const job = parseJob({ id: 'job_1', status: 7, source: 'github', prLink: ['x'] })
    expect(job?.id).toBe('job_1')
    expect(job?.status).toBeUndefined()
    expect(job?.source).toBeUndefined()
    expect(job?.prLink).toBeUndefined()
  })

  it.each([null, 'job', 42, ['job'], undefined])('refuses %j, which is not a job', (body) => {
    expect(parseJob(body)).toBeUndefined()
  })
})

describe('classifyStatus', () => {
  it('knows every documented status', () => {
    expect([...STATUS_TABLE.keys()].sort()).toEqual(['active', 'archived', 'completed', 'failed'])
    expect(classifyStatus('active')).toEqual({ phase: 'running', known: true })
    expect(classifyStatus('completed')).toEqual({ phase: 'completed', known: true })
    expect(classifyStatus('archived')).toEqual({ phase: 'archived', known: true })
    expect(classifyStatus('failed')).toEqual({ phase: 'failed', known: true })
  })

  it.each(['queued', 'Completed', 'toString', '__proto__', '', null, undefined])(
    'treats %j as still running, never as finished',
    (status) => {
      expect(classifyStatus(status)).toEqual({ phase: 'running', known: false })
    }
  )
})

describe('mergeJob', () => {
  const known = {
    id: 'job_1',
    status: 'active',
    model: 'opus',
    prLink: null,
    source: { repository: 'https://github.com/acme/docs', ref: 'main' }
  }

  it('takes what the answer says', () => {
    const latest = { id: 'job_1', status: 'completed', prLink: 'https://github.com/a/b/pull/2' }
    expect(mergeJob(known, latest)).toMatchObject(latest)
  })

  it('keeps a field the answer leaves out or sets to null', () => {
    const merged = mergeJob(known, { status: 'active', model: null, source: { ref: null } })
    expect(merged).toMatchObject({ id: 'job_1', model: 'opus', source: { ref: 'main' } })
  })

  it('always keeps the id the job was created with', () => {
    expect(mergeJob(known, { id: 'other', status: 'active' }).id).toBe('job_1')
  })
})
