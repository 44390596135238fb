// A job id is the platform's opaque string: followed whatever characters it holds, sent back as
// one path segment, and published only encoded (the output, the status comment's marker, the docs
// check's record) in a form that reads back as the same id.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { readRecord, recordSuffix } from '../src/clients/github/branch-record.js'
import { marker, readMarker } from '../src/clients/github/companion.js'
import { jobIdInput } from '../src/given/inputs/parse.js'
import { createMintlifyApi } from '../src/clients/mintlify/api.js'
import { decodeJobId, encodeJobId, jobIdProblem, MAX_JOB_ID_LENGTH } from '../src/base/job-id.js'
import { parseJob } from '../src/clients/mintlify/job.js'
import type { Transport } from '../src/clients/mintlify/transport.js'

/** Ids as the platform's contract allows them: any string that can be an id. */
const ids = fc
  .oneof(
    fc.constantFrom(
      'velit in',
      'a -->b',
      '--><script>x</script>',
      '50%off',
      '%2F',
      'a/b/../c',
      ' leading and trailing ',
      '`code` *bold* [link](x) @someone #1',
      'ид задания',
      '作业 👩🏽‍💻',
      '...',
      '-',
      'job_4f2a9c',
      '\u2028\u202e\ufeff'
    ),
    fc.string({ minLength: 1, maxLength: 80 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
    fc
      .array(fc.constantFrom(' ', '-', '->', '-->', '%', '%2', '%25', '/', '?', '#', '.', 'a', '<'))
      .map((parts) => parts.join(''))
  )
  .filter((id) => jobIdProblem(id) === undefined)

describe('a job id', () => {
  it('is taken from the platform as it is, whatever characters it holds (property)', () => {
    fc.assert(
      fc.property(ids, (id) => {
        const job = parseJob({ id, status: 'active' })
        expect(job?.id).toBe(id)
      })
    )
  })

  it('refuses only what cannot be an id', () => {
    expect(jobIdProblem('')).toBe('is empty')
    expect(jobIdProblem('a\nb')).toBe('contains control characters')
    expect(jobIdProblem('a\u0085b')).toBe('contains control characters')
    expect(jobIdProblem('\udc00x')).toMatch(/lone surrogate/)
    expect(jobIdProblem('..')).toMatch(/cannot be/)
    expect(jobIdProblem('j'.repeat(MAX_JOB_ID_LENGTH))).toBeUndefined()
    expect(jobIdProblem('j'.repeat(MAX_JOB_ID_LENGTH + 1))).toMatch(/longer than 256/)
    expect(parseJob({ id: 'a\nb', status: 'active' })?.id).toBeNull()
  })

  it('is sent back as exactly one path segment, which a URL parser reads back as the id (property)', async () => {
    await fc.assert(
      fc.asyncProperty(ids, async (id) => {
        const paths: string[] = []
        const transport: Transport = {
          send: async (_method, path) => {
            paths.push(path)
            const text = JSON.stringify({ id, status: 'active' })
            return { status: 200, text, headers: { get: () => null } }
          }
        }
        const api = createMintlifyApi(transport, 'proj_1')
        const signal = new AbortController().signal
        await api.getJob(id, 1000, signal)
        await api.sendMessage(id, 'more', 1000, signal)
        const [get = '', message = ''] = paths
        // As fetch reads them: WHATWG URL parsing resolves dot segments and re-encodes nothing.
        const segments = (path: string) => new URL(`https://api.example${path}`).pathname.split('/')
        expect(segments(get)).toHaveLength(6)
        expect(segments(message)).toHaveLength(7)
        expect(segments(message)[6]).toBe('message')
        expect(decodeURIComponent(segments(get)[5] ?? '')).toBe(id)
        expect(decodeURIComponent(segments(message)[5] ?? '')).toBe(id)
      })
    )
  })

  it('is encoded as one URL-safe word that decodes to the id, and ids of today are unchanged (property)', () => {
    fc.assert(
      fc.property(ids, (id) => {
        const encoded = encodeJobId(id)
        expect(encoded).toMatch(/^(?:[A-Za-z0-9_.:-]|%[0-9A-F]{2})+$/)
        expect(decodeJobId(encoded)).toBe(id)
      })
    )
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_.:-]{1,64}$/), (id) => {
        expect(encodeJobId(id)).toBe(id)
      })
    )
  })

  it('round-trips through the status comment marker, which stays one HTML comment (property)', () => {
    fc.assert(
      fc.property(
        ids,
        fc.constantFrom('proj_1', 'a -->b', 'proj 2'),
        fc.option(fc.stringMatching(/^[0-9a-f]{40}$/), { nil: undefined }),
        fc.boolean(),
        (jobId, projectId, sha, withDocs) => {
          const docs = withDocs ? { owner: 'acme', repo: 'docs', number: 7 } : undefined
          const recorded = {
            projectId,
            jobId,
            ...(sha ? { sha } : {}),
            ...(docs ? { docs } : {})
          }
          const line = marker(recorded)
          // One line, opened and closed once: nothing in an id ends the comment early.
          expect(line).toMatch(/^<!-- mintlify-agent-action project=\S+ job=\S+ .*-->$/)
          expect(line.indexOf('-->')).toBe(line.length - 3)
          expect(line).not.toMatch(/[\r\n\u2028\u2029]/)
          expect(line.slice(4, -3)).not.toContain('--')
          expect(readMarker(`${line}\n### Docs update started`)).toEqual(recorded)
        }
      )
    )
  })

  it('round-trips through the docs check record when its encoded form fits (property)', () => {
    fc.assert(
      fc.property(ids, (jobId) => {
        const suffix = recordSuffix({ jobId, branch: 'main', since: 'abc1234' })
        const fits = encodeJobId(jobId).length <= 64
        expect(suffix !== undefined).toBe(fits)
        if (suffix === undefined) return
        // The id is one word: nothing in it moves where `since` and `on` are read.
        expect(suffix.split(' ')).toEqual([
          '',
          '·',
          'job',
          encodeJobId(jobId),
          'since',
          'abc1234',
          'on',
          'main'
        ])
        expect(readRecord(`Docs job running${suffix}`, 'f'.repeat(40))).toEqual({
          jobId,
          branch: 'main',
          since: 'abc1234',
          told: 'f'.repeat(40)
        })
      })
    )
  })

  it('reads a record written before ids were encoded as it was', () => {
    expect(readRecord(' · job job_4f2a:9c.x-1 since - on main', 's')).toEqual({
      jobId: 'job_4f2a:9c.x-1',
      branch: 'main',
      told: 's'
    })
  })

  it('is given back by the job-id input exactly as the output wrote it (property)', () => {
    fc.assert(
      fc.property(ids, (id) => {
        expect(jobIdInput.parse(encodeJobId(id))).toBe(id)
      })
    )
  })

  it('is taken by the job-id input as the dashboard shows it when it has no "%"', () => {
    expect(jobIdInput.parse('velit in')).toBe('velit in')
    expect(jobIdInput.parse('  velit%20in  ')).toBe('velit in')
    expect(jobIdInput.safeParse('50%off').error?.issues[0]?.message).toMatch(
      /does not start a percent-encoded UTF-8 character.*%25/
    )
    expect(jobIdInput.parse('50%25off')).toBe('50%off')
    expect(jobIdInput.safeParse('a%0Ab').error?.issues[0]?.message).toMatch(
      /contains control characters/
    )
    expect(jobIdInput.safeParse('%2E%2E').error?.issues[0]?.message).toMatch(/cannot be/)
    expect(jobIdInput.safeParse('   ').error?.issues[0]?.message).toMatch(/is blank/)
  })
})
