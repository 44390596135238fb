// The preview's words on every surface, and which branch it is asked for.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { previewBranch, unchanged } from '../src/act/preview.js'
import { parseDeployment } from '../src/clients/mintlify/preview.js'
import type { Preview } from '../src/run/state.js'
import {
  previewMarkup,
  previewStatus,
  previewUrl,
  previewWords,
  withPreview
} from '../src/report/preview.js'
import { isSiteLinkShape } from '../src/given/ref.js'

const URL_ = 'https://acme-mintlify-agent-1.mintlify.app'

describe('the branch a preview is asked for', () => {
  it('is the job’s and the pull request’s when they agree, or the one that is known', () => {
    expect(previewBranch('mintlify/a', 'mintlify/a')).toEqual({ branch: 'mintlify/a' })
    expect(previewBranch('mintlify/a', undefined)).toEqual({ branch: 'mintlify/a' })
    expect(previewBranch(null, 'mintlify/b')).toEqual({ branch: 'mintlify/b' })
  })

  it('is none when they differ, or neither is a branch name', () => {
    expect(previewBranch('mintlify/a', 'mintlify/b')).toEqual({
      cause: { kind: 'branch', job: 'mintlify/a', pull: 'mintlify/b' }
    })
    expect(previewBranch(null, undefined)).toEqual({ cause: { kind: 'branch' } })
    expect(previewBranch('-x', 'a..b')).toEqual({ cause: { kind: 'branch' } })
  })
})

describe('the preview line', () => {
  it('links a ready preview and says so', () => {
    const line = previewMarkup({ state: 'ready', branch: 'b', url: URL_ })
    expect(line).toBe(
      `<a href="${URL_}/">https&#58;//acme-mintlify-agent-1.mintlify.app/</a> — ✅ ready`
    )
  })

  it('quotes a failed build’s summary cut and inert', () => {
    const summary = `<img src=x onerror=alert(1)> @team see [here](https://evil.example) ${'x'.repeat(400)}`
    const line = previewMarkup({ state: 'failed', url: URL_, summary }) ?? ''
    expect(line).toContain('❌ failed: ')
    expect(line).not.toMatch(/<img|\]\(|@team/)
    expect(line).toContain('more characters')
  })

  it('says why there is none, and the plan’s refusal is one notice naming preview: off', () => {
    const plan: Preview = { state: 'not-requested', cause: { kind: 'plan', server: 'no previews' } }
    expect(previewMarkup(plan)).toContain('not available on this plan')
    expect(previewWords(plan)).toEqual({ notice: expect.stringContaining('`preview: off`') })
    expect(previewStatus(plan)).toBe('unavailable')
  })

  it('gives the outputs the last state and only a link in the strict shape', () => {
    expect(previewStatus({ state: 'building', url: URL_ })).toBe('building')
    expect(previewUrl({ state: 'building', url: URL_ })).toBe(URL_)
    expect(previewStatus(undefined)).toBe('')
    expect(previewStatus({ state: 'would-request' })).toBe('')
  })
})

describe('the docs check with a preview', () => {
  const ready = { state: 'success' as const, description: 'Docs pull request ready' }
  it('says both are ready when both are', () => {
    expect(withPreview(ready, { state: 'ready' }).description).toBe(
      'Docs pull request ready, preview ready'
    )
  })
  it('never changes the state, whatever the preview', () => {
    const states: Preview['state'][] = ['building', 'failed', 'not-requested', 'uncertain']
    for (const state of states) expect(withPreview(ready, { state })).toEqual(ready)
    const pending = { state: 'pending' as const, description: 'Docs job x is running' }
    expect(withPreview(pending, { state: 'ready' })).toEqual(pending)
  })
})

describe('a preview link outside the strict shape', () => {
  it('is written nowhere, whatever the platform answers', () => {
    const link = fc.oneof(
      fc.webUrl({
        withQueryParameters: true,
        withFragments: true,
        authoritySettings: { withUserInfo: true, withPort: true }
      }),
      fc.constantFrom(
        'https://a.mintlify.app/?token=mint_secret',
        'https://u:p@a.mintlify.app/',
        'https://a.mintlify.app/%6dint'
      ),
      fc.string()
    )
    fc.assert(
      fc.property(
        link,
        fc.constantFrom<Preview['state']>('building', 'ready', 'failed', 'uncertain'),
        (url, state) => {
          const deployment = parseDeployment({ statusId: 's1', previewUrl: url })
          const preview: Preview = {
            state,
            branch: 'b',
            ...(deployment?.previewUrl ? { url: deployment.previewUrl } : {}),
            ...(deployment?.urlRefused ? { urlRefused: true } : {}),
            ...(state === 'uncertain' ? { cause: { kind: 'unanswered', message: 'HTTP 502' } } : {})
          }
          const written = [
            previewMarkup(preview) ?? '',
            previewUrl(preview),
            JSON.stringify(previewWords(preview))
          ].join('\n')
          // A link in the shape may be written; any other never is (a short one may be in any text).
          fc.pre(!isSiteLinkShape(url) && url.length > 12)
          expect(previewUrl(preview)).toBe('')
          expect(written).not.toContain(url)
        }
      ),
      { numRuns: 1_000 }
    )
  })
})

describe('a preview not asked for again', () => {
  const head = 'ab12cd3'.padEnd(40, '0')
  it('only for the same job whose docs head is the commit the last preview was for', () => {
    const previewed = { jobId: 'job_1', sha: head }
    expect(unchanged(previewed, 'job_1', head)).toBe(true)
    expect(unchanged(previewed, 'job_1', 'f'.repeat(40))).toBe(false)
    expect(unchanged(previewed, 'job_2', head)).toBe(false)
    // A head GitHub did not give is never taken as unchanged, nor is a run with no record.
    expect(unchanged(previewed, 'job_1', undefined)).toBe(false)
    expect(unchanged(undefined, 'job_1', head)).toBe(false)
  })

  it('says so on every surface, with the commit, and hands on no link', () => {
    const preview: Preview = { state: 'unchanged', branch: 'mintlify/agent-1', sha: head }
    expect(previewStatus(preview)).toBe('unchanged')
    expect(previewUrl(preview)).toBe('')
    expect(previewMarkup(preview)).toBe(
      'unchanged since the last preview (docs commit ab12cd3): not requested again'
    )
    expect(previewWords(preview)).toEqual({
      info:
        'The docs pull request is unchanged since the last preview of mintlify/agent-1 (docs ' +
        'commit ab12cd3), so no new preview was requested; the earlier one still shows it.'
    })
    expect(
      withPreview({ state: 'success', description: 'Docs pull request ready' }, preview)
    ).toEqual({
      state: 'success',
      description: 'Docs pull request ready'
    })
  })
})
