#!/bin/sh
# Runs a built app (dist/<app>.mjs, made by build.mjs) as this very process: `exec` replaces the
# shell with Node, so the process that was started is the server (or worker, or CLI), and
# SIGTERM/SIGINT reach it directly. The Dockerfile's CMD runs this script too.
#
#   tooling/build/start.sh server|worker|quire [arguments...]
#
# Node is $QUIRE_NODE if set, else the Node 24 binary of the `node` npm package that
# `pnpm install` put in node_modules (node_modules/node/bin/node is that binary itself; the
# node_modules/.bin/node shim is a shell that would stay in between), else `node` on the PATH
# (the Docker image, which has no node_modules).
set -eu
root=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)
app=${1:?usage: tooling/build/start.sh server|worker|quire [arguments...]}
shift
bundle="$root/dist/$app.mjs"
if [ ! -f "$bundle" ]; then
  echo "$bundle is missing: build it first with \`pnpm build\` (node tooling/build/build.mjs)" >&2
  exit 1
fi
node=${QUIRE_NODE:-}
if [ -z "$node" ]; then
  if [ -x "$root/node_modules/node/bin/node" ]; then node="$root/node_modules/node/bin/node"; else node=node; fi
fi
# The CLI is a short process: a young generation that starts at 16 MB spares it most of the
# garbage collections of its start-up (a sixth of a call's CPU time).
flags=""
if [ "$app" = quire ]; then flags="--min-semi-space-size=16"; fi
# The server and the worker are long processes sized for a small machine, their flags chosen under
# load by `pnpm bench --http-flags` (throughput, CPU per request and resident memory side by side;
# the figures are in docs/operations.md, "Node flags under load"), not by idle memory alone:
# - a young generation of at most 16 MB a semi-space. V8 sizes it from the machine's memory (16 MB
#   here, more on a large machine, less on a small one). 2 MB held a few MB less at idle, but under
#   load the collector ran so often that it took about a quarter of the server's CPU time against a
#   tenth, and 8 MB still half as much again as 16 MB; 16 MB costs a couple of dozen MB at idle and
#   under load over 2 MB.
# - two malloc arenas instead of one per thread, and allocations from 128 KB up mapped on their own
#   and freed back, with the heap trimmed from 128 KB (glibc otherwise raises both after the first
#   large free and keeps what start-up parsed in): less resident at idle and under load, for no
#   CPU time per request the bench tells apart from its noise.
# - for the server, no allocation-site pretenuring: once V8 saw some of a request's objects outlive
#   a scavenge (at start-up, or in a burst), it made them in the old generation from then on, and
#   each such dead object kept the rest of its request alive through the next scavenge, which then
#   promoted it all, to be collected only by the next full collection (docs/operations.md, "The
#   request path under load").
# With the embedded database, WebAssembly runs on V8's baseline compiler only: optimizing PGlite's
# PostgreSQL took the start-up to 1 GB for a moment, for no request measurably faster.
# QUIRE_NODE_FLAGS replaces these choices of Node's flags; the MALLOC_* variables, when set,
# replace those of malloc.
if [ "$app" = server ] || [ "$app" = worker ]; then
  export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
  export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
  export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-131072}"
  flags="--max-semi-space-size=16"
  if [ "$app" = server ]; then flags="$flags --no-allocation-site-pretenuring"; fi
  if [ "$app" = server ] && [ -z "${DATABASE_URL:-}" ]; then flags="$flags --liftoff-only"; fi
  flags="${QUIRE_NODE_FLAGS:-$flags}"
fi
exec "$node" $flags "$bundle" "$@"
