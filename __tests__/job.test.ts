import { describe, expect, it } from '@jest/globals'
import { classifyStatus, parseJob, pullRequestNumber, STATUS_TABLE } from '../src/job.js'

describe('parseJob', () => {
  it('reads a full job and keeps fields it does not know', () => {
    const job = parseJob({
      id: 'job_1',
      status: 'completed',
      model: 'claude',
      prLink: 'https://github.com/acme/docs/pull/3',
      source: { repository: 'https://github.com/acme/docs', ref: 'main' },
      createdAt: '2026-11-22T00:00:00Z',
      archivedAt: null,
      extra: 42
    })
    expect(job).toMatchObject({
      id: 'job_1',
      status: 'completed',
      source: { ref: 'main' },
      extra: 42
    })
  })

  it('accepts a job with every field missing', () => {
    expect(parseJob({})).toEqual({})
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

describe('pullRequestNumber', () => {
  it.each([
    ['https://github.com/acme/docs/pull/123', '123'],
    ['https://github.com/acme/docs/pull/123/files', '123'],
    ['https://github.com/acme/docs/pull/9?x=1', '9'],
    ['https://gitlab.example/acme/docs/-/merge_requests/4', undefined],
    ['https://github.com/acme/docs/pull/12abc', undefined],
    [undefined, undefined]
  ])('%s → %s', (link, number) => {
    expect(pullRequestNumber(link)).toBe(number)
  })
})
