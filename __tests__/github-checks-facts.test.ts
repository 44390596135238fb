import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  CHECK_RUN_CONCLUSIONS,
  CHECK_RUN_EXAMPLE,
  CHECK_RUN_STATUSES,
  DOCUMENTED_ONLY,
  STATUS_STATES
} from '../__fixtures__/github-checks.js'
import { CheckRunsSchema, ListedCheckRunSchema } from '../src/clients/github/schemas.js'
import { CONCLUSIONS, STATUS_STATES as COUNTED } from '../src/clients/github/docs-checks.js'

// The facts about GitHub's answers that the docs-checks read rests on (the fixture names where
// each comes from), checked against GitHub's own REST description and against the code.

interface Schema {
  enum?: string[]
  properties?: Record<string, Schema>
}
const require = createRequire(import.meta.url)
const description = JSON.parse(
  readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8')
) as { components: { schemas: Record<string, Schema> } }
const { schemas } = description.components

describe("GitHub's check facts", () => {
  it("list every conclusion and status @octokit/openapi's check-run schema allows", () => {
    const run = schemas['check-run']?.properties ?? {}
    const documented = Object.keys(CHECK_RUN_CONCLUSIONS).filter(
      (c) => !(DOCUMENTED_ONLY as readonly string[]).includes(c)
    )
    expect(documented.sort()).toEqual([...(run.conclusion?.enum ?? [])].sort())
    expect([...CHECK_RUN_STATUSES].sort()).toEqual([...(run.status?.enum ?? [])].sort())
  })

  it('count each conclusion and state as the action does', () => {
    expect(CONCLUSIONS).toEqual(CHECK_RUN_CONCLUSIONS)
    expect(COUNTED).toEqual(STATUS_STATES)
  })

  it("read GitHub's example check run by the fields the action names", () => {
    expect(CheckRunsSchema.parse({ total_count: 1, check_runs: [CHECK_RUN_EXAMPLE] })).toBeTruthy()
    expect(ListedCheckRunSchema.parse(CHECK_RUN_EXAMPLE)).toEqual({
      name: 'mighty_readme',
      status: 'completed',
      conclusion: 'neutral',
      detailsUrl: 'https://example.com',
      htmlUrl: 'https://github.com/github/hello-world/runs/4'
    })
  })
})
