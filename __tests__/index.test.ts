import { afterAll, expect, it, jest } from '@jest/globals'
import * as core from '../__fixtures__/core.js'

const run = jest.fn(() => Promise.reject(new Error('a bug at dist/index.js:15')))
jest.unstable_mockModule('@actions/core', () => core)
jest.unstable_mockModule('../src/main.js', () => ({ run }))

// The entry point listens for rejections of abandoned calls; the worker runs other files after.
const listening = process.listeners('unhandledRejection')
afterAll(() => {
  for (const listener of process.listeners('unhandledRejection')) {
    if (!listening.includes(listener)) process.off('unhandledRejection', listener)
  }
})

it('fails the step with one titled message, not a stack, when run itself throws', async () => {
  const before = process.exitCode
  await import('../src/index.js')
  // The step's exit code, read and put back: this worker runs other files after.
  const code = process.exitCode
  process.exitCode = before
  expect(run).toHaveBeenCalledTimes(1)
  expect(core.error.mock.calls).toEqual([
    [
      'The action stopped on an unexpected error: a bug at dist/index.js:15',
      { title: 'Mintlify agent' }
    ]
  ])
  expect(code).toBe(1)
})
