import { beforeAll, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { readableLine } from '../scripts/runner.js'

const DEMO = fileURLToPath(new URL('../scripts/demo.js', import.meta.url))
const BUNDLE = fileURLToPath(new URL('../dist/index.js', import.meta.url))
const PUSH = fileURLToPath(new URL('../__fixtures__/events/push.json', import.meta.url))
/** The demo's fake tokens (scripts/demo.js): the workflow token, and the docs-pr scenario's. */
const GITHUB_TOKEN = 'ghs_demo_token_for_the_simulator'
const DOCS_TOKEN = 'ghp_demo_docs_token_for_the_simulator'

// The demo runs the committed bundle; a checkout that has not built it yet has nothing to run.
const describeWithBundle = existsSync(BUNDLE) ? describe : describe.skip

interface DemoRun {
  code: number | null
  output: string
}

const runs = new Map<string, Promise<DemoRun>>()

/** The demo with `args`, started once; every scenario waits on wall-clock jobs, so they overlap. */
function demo(...args: string[]): Promise<DemoRun> {
  const key = args.join(' ')
  let run = runs.get(key)
  if (!run) {
    run = new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [DEMO, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      let output = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, output }))
    })
    runs.set(key, run)
  }
  return run
}

const SCENARIOS = [
  [],
  ['--raw'],
  ['--scenario', 'failed'],
  ['--scenario', 'push'],
  ['--scenario', 'follow-up'],
  ['--scenario', 'docs-pr'],
  ['--scenario', 'monorepo'],
  ['--scenario', 'gather'],
  ['--scenario', 'command'],
  ['--scenario', 'timeout']
]

/** The values of one output in the order the steps wrote them, as the demo prints them. */
function outputs(output: string, name: string): string[] {
  return [...output.matchAll(new RegExp(`^${name} +(\\S.*)$`, 'gm'))].map((m) => m[1] ?? '')
}

/** What the demo counted of the requests the simulator received, per step. */
function counted(
  output: string
): { create: number; message: number; get: number; github: number }[] {
  const pattern =
    /^Counted: (\d+) × POST …\/job, (\d+) × POST …\/message, (\d+) × GET …\/job\/\{id\}, (\d+) × GitHub/gm
  return [...output.matchAll(pattern)].map(([, create, message, get, github]) => ({
    create: Number(create),
    message: Number(message),
    get: Number(get),
    github: Number(github)
  }))
}

/** The text the demo prints under the heading that starts with `title`, up to the next heading. */
function section(output: string, title: string): string {
  const start = output.indexOf(`── ${title}`)
  if (start < 0) return ''
  const body = output.slice(output.indexOf('\n', start) + 1)
  const end = body.search(/^(?:── |━━ )/m)
  return end < 0 ? body : body.slice(0, end)
}

/** What the demo prints of each step of a scenario with more than one, in order. */
function steps(output: string): string[] {
  return output.split(/^━━ Step \d+ of \d+: /m).slice(1)
}

/** The lines of the prompt the demo shows under `heading`, without their `│ ` margin. */
function shownPrompt(output: string, heading: string): string {
  const start = output.indexOf(heading)
  if (start < 0) return ''
  const lines = output.slice(start).split('\n').slice(1)
  const end = lines.findIndex((line) => !line.startsWith('│'))
  return lines
    .slice(0, end < 0 ? undefined : end)
    .map((line) => line.replace(/^│ ?/, ''))
    .join('\n')
}

describeWithBundle('npm run demo (skipped without dist/index.js: run npm run build)', () => {
  beforeAll(() => {
    for (const args of SCENARIOS) void demo(...args)
  })

  it('runs the bundle to a pull request and shows its outputs and summary', async () => {
    const { code, output } = await demo()

    expect(code).toBe(0)
    const jobId = /^job-id\s+(\S+)$/m.exec(output)?.[1]
    expect(jobId).toBeDefined()
    expect(output).toMatch(/^pr-link\s+https:\/\/github\.com\/acme\/docs\/pull\/\d+$/m)
    expect(output).toContain(`"id": "${jobId}"`)
    expect(output).toMatch(/Action log ──[\s\S]+Step outputs ──[\s\S]+Job summary \(as text\) ──/)
    expect(counted(output)).toEqual([{ create: 1, message: 0, get: expect.any(Number), github: 0 }])
  })

  it('prints the job summary as text: aligned rows, links as text (url), no markup', async () => {
    const { output } = await demo()

    const summary = section(output, 'Job summary')
    expect(summary).not.toMatch(/<table|<a |<\/?(?:p|h2|td|code)>|&#\d+;|&amp;/)
    expect(summary).toMatch(/^Mintlify agent\n=+\n\n✅ The agent opened a pull request\n/)
    const jobId = /^job-id\s+(\S+)$/m.exec(output)?.[1] ?? 'no job id'
    const number = /^pr-number\s+(\d+)$/m.exec(output)?.[1] ?? 'no number'
    expect(summary).toContain(`\nJob ID             ${jobId}\n`)
    expect(summary).toContain(
      `\nPull request       acme/docs#${number} (https://github.com/acme/docs/pull/${number})\n`
    )
    expect(summary).toContain('\nSource repository  https://github.com/acme/docs\n')
    // No event: nothing was written on GitHub, so nothing is shown of it.
    expect(output).not.toContain('── Comments written on GitHub')
    expect(output).not.toContain('── Docs check on GitHub')
  })

  it('shows the log as GitHub does: no command to the runner, annotations as Warning: lines', async () => {
    const [shown, raw] = await Promise.all([demo(), demo('--raw')])

    const log = (output: string) => section(output, 'Action log').split('\n')
    const commands = (lines: string[]) => lines.filter((line) => /^::[a-z-]+.*::/i.test(line))
    // As the runner receives it: the key masked, and debug lines of each request.
    expect(commands(log(raw.output))).toEqual(
      expect.arrayContaining([
        '::add-mask::mint_simulator_key',
        expect.stringMatching(/^::debug::/)
      ])
    )
    expect(commands(log(shown.output))).toEqual([])
    expect(shown.output).not.toContain('mint_simulator_key')
    // The notice of the pull request reads as a line of its own.
    expect(log(raw.output)).toContainEqual(
      expect.stringMatching(
        /^::notice title=Mintlify agent::Agent job \S+ opened a pull request: https:/
      )
    )
    expect(log(shown.output)).toContainEqual(
      expect.stringMatching(/^Notice: Agent job \S+ opened a pull request: https:/)
    )
  })

  it('exits with the action code when the job fails', async () => {
    const { code, output } = await demo('--scenario', 'failed')

    expect(code).toBe(1)
    expect(output).toMatch(/^status\s+failed$/m)
    expect(output).not.toContain('https://github.com/acme/docs/pull/')
  })

  it('timeout: the summary shows how long the step took beside the timeout it reports', async () => {
    const { code, output } = await demo('--scenario', 'timeout')

    expect(code).toBe(1)
    expect(output).toMatch(
      /^Error: Timed out: agent job \S+ was still active at the last check before the 10s timeout/m
    )
    const row = /^Duration +(\d+(?:\.\d)?)s \(timeout 10s\)$/m.exec(section(output, 'Job summary'))
    // The last check comes at most one poll interval (1s) before the deadline.
    expect(Number(row?.[1])).toBeGreaterThanOrEqual(9)
  })

  it('push: reads the change from GitHub once and shows the prompt the agent was given', async () => {
    const { code, output } = await demo('--scenario', 'push')

    expect(code).toBe(0)
    expect(outputs(output, 'status')).toEqual(['completed'])
    expect(outputs(output, 'skipped')).toEqual(['false'])
    expect(outputs(output, 'pr-link')[0]).toMatch(/^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/)
    const { before, after } = JSON.parse(readFileSync(PUSH, 'utf8')) as {
      before: string
      after: string
    }
    expect(output).toContain(
      `[simulator] GET /repos/Codertocat/Hello-World/compare/${before}...${after}`
    )
    // One comparison for the change; the pull request of the pushed commit and its comments; the
    // status comment created at the start and updated when ready and at the end; the docs check
    // set three times.
    expect(counted(output)).toEqual([
      { create: 1, message: 0, get: expect.any(Number), github: expect.any(Number) }
    ])
    const received = section(output, 'What the simulator received').split('\n')
    const sha = after.slice(0, 7)
    const times = (line: string) => received.filter((r) => r === `${line}  (GitHub)`).length
    expect(
      times(`GET   /repos/Codertocat/Hello-World/compare/${before.slice(0, 7)}...${sha}`)
    ).toBe(1)
    expect(times('POST  /repos/Codertocat/Hello-World/issues/2/comments')).toBe(1)
    // Updated, and the check set, once more when the docs are ready, before the preview builds.
    expect(
      received.filter((r) => /^PATCH \/repos\/.*\/issues\/comments\/\d+ /.test(r))
    ).toHaveLength(2)
    expect(times(`POST  /repos/Codertocat/Hello-World/statuses/${sha}`)).toBe(3)

    // The status comment, as text, then the docs check: pending while the job ran, then success
    // pointing at the docs pull request.
    const number = outputs(output, 'pr-number')[0] ?? 'no number'
    const link = `https://github.com/acme/docs/pull/${number}`
    const comment = section(output, 'Comments written on GitHub')
    expect(comment).toMatch(
      /^Codertocat\/Hello-World#2, comment \d+ by github-actions\[bot\] \(new/
    )
    expect(comment).toContain('│ ✅ Docs pull request ready\n')
    expect(comment).toContain(`│ Docs pull request  acme/docs#${number} (${link})\n`)
    expect(comment).not.toMatch(/<table|<a |###/)
    expect(comment).toMatch(
      /^\(hidden marker: mintlify-agent-action project=demo%2Dproject job=job_/m
    )
    // The pull request has no job of its own yet, so the push gathers on its branch: the check
    // records the job for the next run there.
    const jobId = outputs(output, 'job-id')[0] ?? 'no job id'
    const record = ` · job ${jobId} since ${before.slice(0, 12)} on changes`
    expect(section(output, 'Docs check on GitHub')).toMatch(
      new RegExp(
        `^Codertocat/Hello-World@${sha}, context "Mintlify docs \\(demo-project\\)":\n` +
          `  pending  Docs job ${jobId} is running${record}\n` +
          '(?:           target \\S+\n)?' +
          `  success  Docs pull request ready${record}\n` +
          `           target ${link}\n` +
          `  success  Docs pull request ready, preview ready${record}\n` +
          `           target ${link}\n` +
          '  GitHub shows: success\n'
      )
    )

    // The size the simulator logged is the size of the prompt the demo shows, and most of it is
    // the change the action added after the prompt input.
    const logged = Number(
      /POST \/v2\/agent\/demo-project\/job 201 \d+ms prompt (\d+) chars/.exec(output)?.[1]
    )
    const heading =
      /── The prompt the new job was given \((\d+) chars: (\d+) from the prompt input, (\d+) added by the action/.exec(
        output
      )
    expect(Number(heading?.[1])).toBe(logged)
    expect(Number(heading?.[2]) + Number(heading?.[3])).toBe(logged)
    expect(Number(heading?.[3])).toBeGreaterThan(1000)
    const prompt = shownPrompt(output, '── The prompt the new job was given')
    // A push on a branch is told everything since the commit before it.
    expect(prompt).toMatch(
      new RegExp(
        '^Document the new --dry-run flag in the CLI reference\n\n' +
          `## Context: the commits on changes since ${before.slice(0, 7)}\n`
      )
    )
    expect(prompt).toContain('Event: push on refs/heads/changes')
    expect(prompt).toMatch(/^modified src\/commands\/deploy\.ts \(\+7 −1\)$/m)
    // The fake token reaches the action only as an input, which it masks: no line shows it.
    expect(output).not.toContain(GITHUB_TOKEN)
  })

  it('follow-up: the second step sends one message to the first step’s job and starts none', async () => {
    const { code, output } = await demo('--scenario', 'follow-up')

    expect(code).toBe(0)
    const ids = outputs(output, 'job-id')
    expect(ids).toHaveLength(2)
    expect(ids[1]).toBe(ids[0])
    expect(outputs(output, 'status')).toEqual(['completed', 'completed'])
    const links = outputs(output, 'pr-link')
    expect(links).toHaveLength(2)
    expect(links[1]).toBe(links[0])

    const [first, second] = counted(output)
    expect(first).toMatchObject({ create: 1, message: 0, github: 0 })
    expect(second).toMatchObject({ create: 0, message: 1, github: 0 })
    expect(second?.get).toBeGreaterThan(0)
    expect(output.match(/^\[simulator\] POST .*\/message /gm)).toEqual([
      `[simulator] POST /v2/agent/demo-project/job/${ids[0]}/message `
    ])
    expect(output.match(/^\[simulator\] POST \/v2\/agent\/demo-project\/job /gm)).toHaveLength(1)
    expect(output).toContain(`Sent a follow-up message to agent job ${ids[0]}`)
    expect(shownPrompt(output, '── The follow-up message the job was sent')).toBe(
      'Also add a --dry-run example to the quickstart'
    )
    expect(output).toMatch(/^Step 2 \(.*\) exited with code 0\.$/m)
  })

  it('docs-pr: the docs pull request links back to the code one, with reviewers and labels', async () => {
    const { code, output } = await demo('--scenario', 'docs-pr')

    expect(code).toBe(0)
    const comments = section(output, 'Comments written on GitHub')
    expect(comments).toMatch(/^Codertocat\/Hello-World#2, comment \d+ by github-actions\[bot\]/m)
    expect(comments).toMatch(/^acme\/docs#101, comment \d+ by docs-writer\[bot\] \(new\):$/m)
    expect(comments).toContain('This pull request documents Codertocat/Hello-World#2')
    expect(section(output, 'Pull request changes on GitHub')).toContain(
      'acme/docs#101: labels documentation; reviewers octocat, Codertocat; teams writers'
    )
    // The docs token is masked like every secret: no line shows it.
    expect(output).not.toContain(DOCS_TOKEN)
  })

  it('monorepo: github-token follows the docs pull request in the code repository; its own run is skipped', async () => {
    const { code, output } = await demo('--scenario', 'monorepo')

    expect(code).toBe(0)
    expect(outputs(output, 'pr-link')).toEqual(['https://github.com/Codertocat/Hello-World/pull/7'])
    expect(outputs(output, 'skipped')).toEqual(['false', 'true'])
    const [onCode, onDocs] = steps(output)

    // The code pull request's run: the backlink, reviewers and labels on the docs pull request
    // beside it, written by the workflow token's account; no docs-token was given.
    const comments = section(onCode ?? '', 'Comments written on GitHub')
    expect(comments).toMatch(/^Codertocat\/Hello-World#2, comment \d+ by github-actions\[bot\]/m)
    expect(comments).toMatch(
      /^Codertocat\/Hello-World#7, comment \d+ by github-actions\[bot\] \(new\):$/m
    )
    expect(comments).toContain('This pull request documents Codertocat/Hello-World#2')
    expect(section(onCode ?? '', 'Pull request changes on GitHub')).toBe(
      'Codertocat/Hello-World#7: labels documentation; reviewers octocat, Codertocat\n\n'
    )

    // The docs pull request's own run, opened by mintlify[bot]: no job, no comment, one passing
    // check on its head commit.
    expect(onDocs).toContain(
      "Pull request #7 was opened by mintlify[bot] (agent-accounts): it is the agent's own docs pull request"
    )
    expect(counted(onDocs ?? '')).toEqual([{ create: 0, message: 0, get: 0, github: 1 }])
    expect(onDocs).not.toContain('── Comments written on GitHub')
    expect(section(onDocs ?? '', 'Docs check on GitHub')).toBe(
      'Codertocat/Hello-World@5d0c7a1, context "Mintlify docs (demo-project)":\n' +
        '  success  This is the docs pull request itself\n' +
        '  GitHub shows: success\n\n'
    )
  })

  it("command: a reviewer's /docs goes to the pull request's docs job, acknowledged on the comment", async () => {
    const { code, output } = await demo('--scenario', 'command')

    expect(code).toBe(0)
    const ids = outputs(output, 'job-id')
    expect(ids).toEqual([ids[0] ?? 'no job id', ids[0] ?? 'no job id'])
    expect(counted(output)).toEqual([
      { create: 1, message: 0, get: expect.any(Number), github: expect.any(Number) },
      { create: 0, message: 1, get: expect.any(Number), github: expect.any(Number) }
    ])
    const [, onComment = ''] = steps(output)
    expect(onComment).toContain('Taking /docs by Codertocat on pull request #2.')
    expect(onComment).toContain('/collaborators/Codertocat/permission')
    expect(onComment).toContain('```text\n│ Also document the --retries flag\n│ ```')
    expect(
      onComment.match(
        /POST {2}\/repos\/Codertocat\/Hello-World\/issues\/comments\/492700400\/reactions/g
      )
    ).toHaveLength(2)
  })

  it('gather: a later push to main joins the job and the docs pull request an earlier push started', async () => {
    const { code, output } = await demo('--scenario', 'gather')

    expect(code).toBe(0)
    // main, as the demo makes it up: the commit the docs were last told about, the first push, a
    // push that did not run the workflow, the second push.
    const [documented, first, between, second] = [
      'f95f852bd8fc',
      '3a1f0c9d2b7e',
      '7c2e9b1a0f3d',
      'b94d27e1c3a5'
    ]
    const ids = outputs(output, 'job-id')
    const jobId = ids[0] ?? 'no job id'
    expect(ids).toEqual([jobId, jobId])
    expect(outputs(output, 'pr-link')).toEqual([
      'https://github.com/acme/docs/pull/101',
      'https://github.com/acme/docs/pull/101'
    ])
    expect(counted(output)).toEqual([
      { create: 1, message: 0, get: expect.any(Number), github: expect.any(Number) },
      { create: 0, message: 1, get: expect.any(Number), github: expect.any(Number) }
    ])
    const [onFirst, onSecond] = steps(output)

    // Each run looks for the record in one GraphQL request before it reads the change.
    const received = (step: string) => section(step, 'What the simulator received').split('\n')
    expect(received(onFirst ?? '').slice(0, 3)).toEqual([
      `GET   /repos/Codertocat/Hello-World/commits/${first.slice(0, 7)}/pulls?per_page=100  (GitHub)`,
      'POST  /graphql  (GitHub)',
      `GET   /repos/Codertocat/Hello-World/compare/${documented.slice(0, 7)}...${first.slice(0, 7)}  (GitHub)`
    ])
    // The second run reads the recorded job and its docs pull request, then the change since the
    // commit the job was last told about: the push that did not run the workflow is in it.
    expect(received(onSecond ?? '').slice(1, 5)).toEqual([
      'POST  /graphql  (GitHub)',
      `GET   /v2/agent/demo-project/job/${jobId}`,
      'GET   /repos/acme/docs/pulls/101  (GitHub)',
      `GET   /repos/Codertocat/Hello-World/compare/${first.slice(0, 7)}...${second.slice(0, 7)}  (GitHub)`
    ])
    expect(onSecond).toContain(
      `This change joins agent job ${jobId} and its open docs pull request acme/docs#101 on main (reuse-job: true).`
    )
    expect(section(onSecond ?? '', 'Job summary')).toContain(`This change joins agent job ${jobId}`)
    const message = shownPrompt(onSecond ?? '', '── The follow-up message the job was sent')
    expect(message).toContain(`## Context: the commits on main since ${first.slice(0, 7)}\n`)
    expect(message).toMatch(
      new RegExp(`^${between.slice(0, 7)} List skipped files in --dry-run`, 'm')
    )

    // The docs check on each pushed commit records the job, and since when it documents main.
    const record = ` · job ${jobId} since ${documented} on main`
    expect(section(onFirst ?? '', 'Docs check on GitHub')).toBe(
      `Codertocat/Hello-World@${first.slice(0, 7)}, context "Mintlify docs (demo-project)":\n` +
        `  pending  Docs job ${jobId} is running${record}\n` +
        `  success  Docs pull request ready${record}\n` +
        '           target https://github.com/acme/docs/pull/101\n' +
        `  success  Docs pull request ready, preview ready${record}\n` +
        '           target https://github.com/acme/docs/pull/101\n' +
        '  GitHub shows: success\n\n'
    )
    expect(section(onSecond ?? '', 'Docs check on GitHub')).toBe(
      `Codertocat/Hello-World@${second.slice(0, 7)}, context "Mintlify docs (demo-project)":\n` +
        `  pending  Follow-up sent to docs job ${jobId}${record}\n` +
        `  success  Docs pull request ready${record}\n` +
        '           target https://github.com/acme/docs/pull/101\n' +
        `  success  Docs pull request ready, preview ready${record}\n` +
        '           target https://github.com/acme/docs/pull/101\n' +
        '  GitHub shows: success\n\n'
    )

    // The backlink on the docs pull request lists both runs' changes, newest last.
    const backlink = section(onSecond ?? '', 'Comments written on GitHub')
    expect(backlink).toMatch(/^acme\/docs#101, comment \d+ by docs-writer\[bot\] \(edited 1×\):$/m)
    const rows = backlink.split('\n').filter((line) => / [0-9a-f]{7} \(https:/.test(line))
    expect(rows.map((line) => / ([0-9a-f]{7}) \(https:/.exec(line)?.[1])).toEqual([
      first.slice(0, 7),
      second.slice(0, 7)
    ])
  })
})

describe('readableLine: a log line as GitHub shows it', () => {
  /** How @actions/core writes an annotation's message (its `escapeData`): %, CR and LF escaped. */
  const escapeData = (text: string) =>
    text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')

  it('shows an annotation as Warning:, Error: or Notice:, its lines under it (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(['warning', 'Warning'], ['error', 'Error'], ['notice', 'Notice']),
        fc.constantFrom('', ' title=Mintlify agent'),
        fc.string({ unit: fc.constantFrom('a', ' ', '%', ':', '\n', '\r\n', '0', 'A', 'é') }),
        ([command, word], properties, message) => {
          const indent = ' '.repeat(word.length + 2)
          expect(readableLine(`::${command}${properties}::${escapeData(message)}`)).toBe(
            `${word}: ${message.replace(/\r?\n/g, `\n${indent}`)}`
          )
        }
      )
    )
  })

  it('leaves out the commands that only steer the runner', () => {
    for (const line of [
      '::debug::Polling the job',
      '::add-mask::mint_simulator_key',
      '::endgroup::',
      '::save-state name=x::1',
      '::stop-commands::token'
    ]) {
      expect(readableLine(line)).toBeUndefined()
    }
    expect(readableLine('::group::The prompt')).toBe('▸ The prompt')
  })

  it('keeps every line that is no command as it is (property)', () => {
    fc.assert(
      fc.property(fc.string(), (line) => {
        fc.pre(!/^::[a-z-]+(?:\s[^:]*)?::/i.test(line))
        expect(readableLine(line)).toBe(line)
      })
    )
  })
})
