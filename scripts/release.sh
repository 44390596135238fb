#!/usr/bin/env bash
# Tags a release of the version in package.json: creates the annotated tag vX.Y.Z on HEAD and
# moves the major tag vX to it, both locally. It pushes nothing; it prints the commands to do so.
#
#   scripts/release.sh
#
# It refuses to tag when the working tree has any change, when the tag already exists, when
# CHANGELOG.md has no section for the version, or when `npm run check:dist` finds dist/ stale: the
# tag must name a commit whose committed bundle is exactly what its sources build.
set -euo pipefail

cd "$(git rev-parse --show-toplevel)"

fail() {
  printf 'release: %s\n' "$1" >&2
  exit 1
}

if [[ -n "$(git status --porcelain)" ]]; then
  git status --short >&2
  fail 'the working tree has changes (listed above): commit or discard them first.'
fi

version="$(node -p 'require("./package.json").version')"
if [[ ! $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  fail "package.json version \"$version\" is not a semantic version X.Y.Z."
fi
tag="v$version"
major="v${version%%.*}"

if git rev-parse --quiet --verify "refs/tags/$tag" >/dev/null; then
  fail "tag $tag already exists. Raise the version with \`npm version <patch|minor|major> --no-git-tag-version\` first."
fi

if ! grep -q "^## \[$version\]" CHANGELOG.md; then
  fail "CHANGELOG.md has no \"## [$version]\" section: move the Unreleased entries under it and commit."
fi

echo "Rebuilding dist/ to check that it matches the sources..."
if ! npm run check:dist; then
  fail "npm run check:dist failed (see above): commit the rebuilt dist/ or fix the build, then run this again."
fi

git tag --annotate "$tag" --message "$tag"
if [[ $version == *-* ]]; then
  echo "Created $tag on $(git rev-parse --short HEAD); $major stays put for a pre-release."
  workflow="re-checks $tag (tests, dist/) and creates a pre-release with generated notes."
  moved=''
else
  git tag --force "$major" "$tag^{commit}"
  echo "Created $tag on $(git rev-parse --short HEAD) and moved $major to it."
  workflow="re-checks $tag (tests, dist/), moves $major on GitHub and creates the release with
generated notes."
  moved="$major"
fi

cat <<EOF

Nothing has been pushed. To publish, push the commit first if it is not on GitHub yet, then the tag:

  git push origin HEAD
  git push origin $tag

The release workflow then $workflow
EOF
if [[ -n $moved ]]; then
  cat <<EOF

Only if that workflow cannot move it, push the major tag yourself:

  git push --force origin $moved
EOF
fi
