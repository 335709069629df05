#!/usr/bin/env bash
# Regenerates Sources/Realtime/Proto/gtfs-realtime.pb.swift from gtfs-realtime.proto beside it.
#
# The generated Swift is committed, so ordinary builds never compile swift-protobuf's code generator (about ten
# minutes on two cores). Run this after editing the .proto: it builds protoc-gen-swift from the swift-protobuf
# checkout the package resolved (so the generator matches the runtime library exactly) in a scratch directory
# of its own, then runs Debian's protoc (protobuf-compiler, installed by kiosk/setup.sh).
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
proto_dir="$root/Sources/Realtime/Proto"
scratch="${PROTOC_GEN_SWIFT_SCRATCH:-${XDG_CACHE_HOME:-$HOME/.cache}/stopkiosk/protoc-gen-swift}"

command -v protoc >/dev/null || { echo "generate-realtime-proto: protoc is missing: apt-get install protobuf-compiler (or run kiosk/setup.sh)" >&2; exit 1; }

cd "$root"
swift package resolve >&2
checkout="$root/.build/checkouts/swift-protobuf"
[ -d "$checkout" ] || { echo "generate-realtime-proto: no swift-protobuf checkout at $checkout" >&2; exit 1; }

echo "generate-realtime-proto: building protoc-gen-swift ($(git -C "$checkout" describe --tags 2>/dev/null || echo unknown)) in $scratch" >&2
swift build --package-path "$checkout" --scratch-path "$scratch" --product protoc-gen-swift >&2
plugin="$(swift build --package-path "$checkout" --scratch-path "$scratch" --show-bin-path)/protoc-gen-swift"

protoc --plugin=protoc-gen-swift="$plugin" --proto_path="$proto_dir" \
  --swift_opt=Visibility=Public --swift_opt=FileNaming=DropPath \
  --swift_out="$proto_dir" "$proto_dir/gtfs-realtime.proto"
echo "generate-realtime-proto: wrote $proto_dir/gtfs-realtime.pb.swift" >&2
