#!/usr/bin/env bash
# Builds the libFuzzer targets with swiftc -sanitize=fuzzer,address into Fuzz/build/.
# Each module is compiled straight from Sources/ so the fuzzed code is the shipped code.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Fuzz/build
mkdir -p "$out"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6)

module() {  # module NAME [deps...]
  local name=$1; shift
  swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
    -emit-library -static -o "$out/lib$name.a" -I "$out" $(find Sources/"$name" -name "*.swift" | sort)
}

module NFCBytes
module NDEF
swiftc "${flags[@]}" -I "$out" Fuzz/NDEFDecoder/main.swift "$out/libNDEF.a" "$out/libNFCBytes.a" -o "$out/fuzz-ndef"
echo "built $out/fuzz-ndef"
module NFCCBOR
swiftc "${flags[@]}" -I "$out" Fuzz/CBORDecoder/main.swift "$out/libNFCCBOR.a" -o "$out/fuzz-cbor"
echo "built $out/fuzz-cbor"
