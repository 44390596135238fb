import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { SECRETS_GUARD, withheldSecrets, withheldWords } from '../src/given/inputs/withheld.js'
import { named, type Event } from '../src/given/event.js'
import { readEvent } from '../src/given/read-event.js'

function fixture(name: string): string {
  return fileURLToPath(new URL(`../__fixtures__/events/${name}`, import.meta.url))
}

/** The event a runner describes with GitHub's example payload `file`. */
function onFixture(name: string, file: string, more: NodeJS.ProcessEnv = {}): Event | undefined {
  return readEvent({
    GITHUB_EVENT_NAME: name,
    GITHUB_EVENT_PATH: fixture(file),
    GITHUB_REPOSITORY: 'Codertocat/Hello-World',
    ...more
  })
}

describe('runs GitHub gives no secrets', () => {
  it("a pull_request run on a fork's pull request (GitHub's example, head in hubot/Hello-World)", () => {
    expect(withheldSecrets(onFixture('pull_request', 'pull_request-opened-fork.json'))).toBe(
      'pull requests from forks (pull request #2 comes from hubot/Hello-World)'
    )
  })

  it('a run Dependabot starts, whatever the event', () => {
    for (const [name, file] of [
      ['pull_request', 'pull_request-opened.json'],
      ['push', 'push.json']
    ] as const) {
      expect(withheldSecrets(onFixture(name, file, { GITHUB_ACTOR: 'dependabot[bot]' }))).toBe(
        'runs Dependabot starts (GITHUB_ACTOR is dependabot[bot])'
      )
    }
  })

  it('not a pull request of the repository itself, pull_request_target, a comment or a push', () => {
    expect(withheldSecrets(onFixture('pull_request', 'pull_request-opened.json'))).toBeUndefined()
    // pull_request_target runs in the base repository's context, with its secrets.
    expect(
      withheldSecrets(onFixture('pull_request_target', 'pull_request-opened-fork.json'))
    ).toBeUndefined()
    expect(
      withheldSecrets(onFixture('issue_comment', 'issue_comment-created-pull_request.json'))
    ).toBeUndefined()
    expect(withheldSecrets(onFixture('push', 'push.json'))).toBeUndefined()
    expect(withheldSecrets(undefined)).toBeUndefined()
  })

  const names = fc.constantFrom(
    'pull_request',
    'pull_request_review',
    'pull_request_review_comment',
    'pull_request_target',
    'issue_comment',
    'push',
    'workflow_dispatch'
  )
  const logins = fc.constantFrom(
    'octocat',
    'hubot',
    'dependabot[bot]',
    'Dependabot[bot]',
    'mintlify[bot]'
  )
  const events = fc.record({
    name: names,
    actor: fc.option(logins, { nil: undefined }),
    author: fc.option(logins, { nil: undefined }),
    fork: fc.option(fc.constantFrom('hubot/Hello-World', 'a deleted fork'), { nil: undefined })
  })

  it('is exactly: Dependabot started it, or a pull_request run (not _target) on a fork’s or Dependabot’s pull request (property)', () => {
    fc.assert(
      fc.property(events, ({ name, actor, author, fork }) => {
        const event: Event = {
          ...named(name),
          actor,
          owner: 'Codertocat',
          repo: 'Hello-World',
          serverUrl: 'https://github.com',
          deleted: false,
          commits: [],
          pullRequest: { number: 2, title: 't', body: '', author, fork }
        }
        const dependabot = (login?: string) => login?.toLowerCase() === 'dependabot[bot]'
        const pullRun = name.startsWith('pull_request') && name !== 'pull_request_target'
        const expected =
          dependabot(actor) || (pullRun && (dependabot(author) || fork !== undefined))
        expect(withheldSecrets(event) !== undefined).toBe(expected)
      })
    )
  })
})

describe('what the skip says', () => {
  it('names the empty inputs, why they are empty, and the guard the documented workflows use', () => {
    const words = withheldWords(
      ['api-key'],
      'pull requests from forks (pull request #2 comes from hubot/Hello-World)'
    )
    expect(words).toBe(
      'api-key is empty: GitHub gives no secrets to pull requests from forks (pull request #2 ' +
        'comes from hubot/Hello-World), so no docs job was started and this step is skipped. To ' +
        `keep such runs from starting, guard the docs job or step with \`${SECRETS_GUARD}\`.`
    )
    expect(withheldWords(['api-key', 'project-id'], 'x')).toMatch(
      /^api-key and project-id are empty/
    )
  })

  it('gives the guard README.md gives', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    expect(readme).toContain(SECRETS_GUARD)
  })
})
