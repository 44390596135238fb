// @ts-check
// Jest's transform of the TypeScript sources and tests: the type stripping Node.js itself runs
// `.ts` files with (`module.stripTypeScriptTypes`). Types become spaces, so every line and column
// stays where it was written and stack traces point into the source with no source map.
// tsconfig.json keeps the code to what stripping can run (`erasableSyntaxOnly`: no enums, no
// parameter properties; `verbatimModuleSyntax`: type-only imports say `type`), and
// `npm run typecheck` checks the types, as it did when the transform compiled them.
//
// CommonJS, like the sequencer: Jest loads a transform with require.
/* eslint-disable @typescript-eslint/no-require-imports */
const { createHash } = require('node:crypto')
const { stripTypeScriptTypes } = require('node:module')

/** @type {import('@jest/transform').SyncTransformer} */
module.exports = {
  process(source) {
    return { code: stripTypeScriptTypes(source, { mode: 'strip' }) }
  },
  // Jest keeps what it makes under this key: after this transform, the coverage counters it adds
  // when asked (`--coverage`), which name the file. So the key holds the file and whether they
  // are asked for, beside the source and the Node.js that strips it.
  getCacheKey(source, path, { instrument }) {
    return createHash('sha256')
      .update(`${process.version}\0${path}\0${instrument ? 'instrumented' : 'plain'}\0`)
      .update(source)
      .digest('hex')
  }
}
