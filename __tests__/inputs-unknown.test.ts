import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import {
  closestInput as closestOf,
  editDistance,
  inputVariable,
  unknownInputWords,
  unknownInputs as unknownOf
} from '../src/given/inputs/unknown.js'

const action = parseYaml(readFileSync(new URL('../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, unknown>
}
/** The action's inputs, as action.yml declares them (readSettings reads each: inputs.test.ts). */
const ACTION_INPUTS = Object.keys(action.inputs)
const closestInput = (name: string) => closestOf(name, ACTION_INPUTS)
const unknownInputs = (env: NodeJS.ProcessEnv) => unknownOf(env, ACTION_INPUTS)

/** A name as a workflow might misspell it: case changed, each hyphen `_`, `-` or left out. */
const respelt = (input: string) =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: input.length, maxLength: input.length }),
      fc.array(fc.constantFrom('-', '_', ''), { minLength: 8, maxLength: 8 })
    )
    .map(([upper, joins]) => {
      let join = 0
      return [...input]
        .map((c, i) =>
          c === '-' ? (joins[join++ % joins.length] ?? '') : upper[i] ? c.toUpperCase() : c
        )
        .join('')
    })

describe('the inputs the action knows', () => {
  it('are read from the variables a runner sets: upper-cased, hyphens kept', () => {
    // STYLE.md: a runner sets INPUT_<NAME> upper-cased with the name's hyphens kept.
    expect(inputVariable('project-id')).toBe('INPUT_PROJECT-ID')
    expect(unknownInputs({ 'INPUT_PROJECT-ID': 'p', 'INPUT_API-KEY': 'k', PATH: '/bin' })).toEqual(
      []
    )
  })
})

describe('a variable that names no input', () => {
  it('names the input it meant: api_key, projectid', () => {
    expect(unknownInputs({ INPUT_API_KEY: 'mint_x', INPUT_PROJECTID: 'p' })).toEqual([
      { variable: 'INPUT_API_KEY', name: 'api_key', suggestion: 'api-key' },
      { variable: 'INPUT_PROJECTID', name: 'projectid', suggestion: 'project-id' }
    ])
  })

  it('names the input one slip away: promt, timout, docs-reviewer, max-poll-intreval', () => {
    expect(closestInput('promt')).toBe('prompt')
    expect(closestInput('timout')).toBe('timeout')
    expect(closestInput('docs-reviewer')).toBe('docs-reviewers')
    expect(closestInput('max-poll-intreval')).toBe('max-poll-interval')
  })

  it('names none when nothing is close', () => {
    expect(closestInput('token')).toBeUndefined()
    expect(closestInput('webhook-url')).toBeUndefined()
    expect(unknownInputs({ INPUT_SOMETHING_ELSE: 'x' })).toEqual([
      { variable: 'INPUT_SOMETHING_ELSE', name: 'something_else' }
    ])
  })

  it('names every input respelt in case, _ or - (property)', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...ACTION_INPUTS)
          .chain((input) => fc.tuple(fc.constant(input), respelt(input))),
        ([input, written]) => {
          const variable = `INPUT_${written.toUpperCase()}`
          fc.pre(variable !== inputVariable(input))
          expect(unknownInputs({ [variable]: '' })).toEqual([
            { variable, name: written.toLowerCase(), suggestion: input }
          ])
        }
      )
    )
  })

  it('reads case, _ and - as nothing, however many a name has (property)', () => {
    const word = fc.stringMatching(/^[a-z]{1,4}$/)
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 2, maxLength: 6 }),
        fc.array(fc.constantFrom('-', '_', '', '__'), { minLength: 6, maxLength: 6 }),
        (parts, joins) => {
          const input = parts.join('-')
          const written = parts.map((p, i) => (i === 0 ? '' : joins[i - 1]) + p).join('')
          // A runner upper-cases the name as written.
          const variable = `INPUT_${written.toUpperCase()}`
          fc.pre(variable !== inputVariable(input))
          expect(unknownOf({ [variable]: '' }, ['prompt', input])).toEqual([
            { variable, name: variable.slice(6).toLowerCase(), suggestion: input }
          ])
        }
      )
    )
  })

  it('names an input one edit from a slip of a letter in a name of six or more (property)', () => {
    const slip = fc
      .tuple(
        fc.constantFrom(...ACTION_INPUTS.filter((i) => i.replace(/-/g, '').length >= 6)),
        fc.nat(),
        fc.constantFrom('delete', 'insert', 'replace', 'swap'),
        fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz')
      )
      .map(([input, at, how, letter]) => {
        const i = at % input.length
        const typo =
          how === 'delete'
            ? input.slice(0, i) + input.slice(i + 1)
            : how === 'insert'
              ? input.slice(0, i) + letter + input.slice(i)
              : how === 'replace'
                ? input.slice(0, i) + letter + input.slice(i + 1)
                : input.slice(0, i) + (input[i + 1] ?? '') + (input[i] ?? '') + input.slice(i + 2)
        return { input, typo }
      })
    fc.assert(
      fc.property(slip, ({ input, typo }) => {
        const norm = (s: string) => s.replace(/[-_]/g, '')
        fc.pre(norm(typo) !== norm(input) && !ACTION_INPUTS.includes(typo))
        const meant = closestInput(typo)
        // The input slipped from, or one as near.
        expect(meant).toBeDefined()
        expect(editDistance(norm(typo), norm(meant ?? ''))).toBeLessThanOrEqual(
          editDistance(norm(typo), norm(input))
        )
      })
    )
  })

  it('counts edits as insert, delete, replace and a swap of neighbours', () => {
    expect(editDistance('', 'abc')).toBe(3)
    expect(editDistance('abc', 'abc')).toBe(0)
    expect(editDistance('abc', 'acb')).toBe(1)
    expect(editDistance('kitten', 'sitting')).toBe(3)
  })

  it('is named with its variable and never with its value (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Z][A-Z_-]{0,20}$/),
        fc.string({ minLength: 8 }),
        (suffix, value) => {
          const variable = `INPUT_${suffix}`
          fc.pre(!ACTION_INPUTS.map(inputVariable).includes(variable))
          fc.pre(!variable.includes(value) && !variable.toLowerCase().includes(value))
          const [unknown] = unknownInputs({ [variable]: value })
          expect(unknown?.variable).toBe(variable)
          const words = unknownInputWords(unknown ?? { variable, name: '' })
          expect(words).toContain(variable)
          expect(words).not.toContain(value)
        }
      )
    )
  })

  it('says which input it meant, and how to write it', () => {
    expect(
      unknownInputWords({ variable: 'INPUT_API_KEY', name: 'api_key', suggestion: 'api-key' })
    ).toBe(
      '"api_key" (INPUT_API_KEY) is not an input of this action, so it is ignored; did you ' +
        'mean api-key? Write it as api-key under with:.'
    )
  })
})
