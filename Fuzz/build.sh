#!/usr/bin/env bash
# Builds the libFuzzer targets with swiftc -sanitize=fuzzer,address into Fuzz/build/.
# Each module is compiled straight from Sources/ (with -enable-testing, so a target may reach an
# internal parser through @testable import) so the fuzzed code is the shipped code.
#
# swift-crypto (needed by NFCSimulator, OpenCoreNFC and the applet clients) is not rebuilt: the
# targets link the objects SwiftPM already built in $CRYPTO_BUILD (default .build/debug; `swift
# build` first). That code is not instrumented — coverage and ASan checks cover our modules,
# which is what we fuzz. See docs/fuzzing.md.
#   Fuzz/build.sh [TARGET...]   (default: all; targets: ndef cbor apdu pcsc pn532 tags applets desfire images config emrtd)
# FUZZ_OPT picks the optimization level (default -O, into Fuzz/build/O/). CI's smoke run uses
# -Onone (Fuzz/build/Onone/): it compiles in less than half the time, and 10 seconds per target
# are about reaching the code with the corpus, not about executions per second.
set -euo pipefail
cd "$(dirname "$0")/.."
opt=${FUZZ_OPT:--O}
case $opt in -O|-Onone|-Osize) ;; *) echo "FUZZ_OPT must be -O, -Osize or -Onone" >&2; exit 2 ;; esac
out=Fuzz/build/${opt#-}
mkdir -p "$out"
# -package-name: the modules share `package` declarations (as SwiftPM builds them, one package).
flags=(-sanitize=fuzzer,address -parse-as-library "$opt" -g -swift-version 6 -enable-testing -package-name opencorenfc -j "$(nproc)")
crypto_build=${CRYPTO_BUILD:-.build/debug}

# Rebuilds a module only when one of its sources is newer than its library.
module() {  # module NAME
  local name=$1 lib="$out/lib$1.a"
  local sources; sources=$(find Sources/"$name" -name "*.swift" | sort)
  if [[ -f $lib ]] && [[ -z $(find Sources/"$name" -name "*.swift" -newer "$lib") ]]; then return; fi
  echo "compiling $name"
  # shellcheck disable=SC2086
  swiftc "${flags[@]}" "${crypto_flags[@]}" "${logging_flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
    -emit-library -static -o "$lib" -I "$out" $sources
}

crypto_flags=()
crypto_objects=()
use_crypto() {
  [[ ${#crypto_objects[@]} -gt 0 ]] && return
  if [[ ! -f $crypto_build/Modules/Crypto.swiftmodule ]]; then
    echo "no swift-crypto build in $crypto_build: run 'swift build' first (or set CRYPTO_BUILD)" >&2; exit 1
  fi
  mkdir -p "$out/crypto"
  for m in Crypto _CryptoExtras CryptoBoringWrapper SwiftASN1 CryptoExtras X509 _CertificateInternals BigInt; do
    [[ -e $crypto_build/Modules/$m.swiftmodule ]] && cp -f "$crypto_build/Modules/$m.swiftmodule" "$out/crypto/"
  done
  crypto_flags=(-I "$out/crypto")
  for map in $(find "$crypto_build" -maxdepth 4 -name module.modulemap -path "*Crypto*"); do
    crypto_flags+=(-Xcc -fmodule-map-file="$map")
  done
  for dir in CCryptoBoringSSL CCryptoBoringSSLShims CryptoBoringWrapper Crypto _CryptoExtras CXKCP CXKCPShims SwiftASN1 CryptoExtras X509 _CertificateInternals BigInt; do
    [[ -d $crypto_build/$dir.build ]] || continue
    while IFS= read -r object; do crypto_objects+=("$object"); done \
      < <(find "$crypto_build/$dir.build" -name "*.o" ! -name "*.swiftmodule.o" | sort)
  done
}

# swift-log, which the engines, the driver, the simulator and OpenCoreNFC log through: its module
# and objects from the same SwiftPM build as swift-crypto's.
logging_flags=()
logging_objects=()
use_logging() {
  [[ ${#logging_objects[@]} -gt 0 ]] && return
  if [[ ! -f $crypto_build/Modules/Logging.swiftmodule ]]; then
    echo "no swift-log build in $crypto_build: run 'swift build' first (or set CRYPTO_BUILD)" >&2; exit 1
  fi
  mkdir -p "$out/logging"
  cp -f "$crypto_build/Modules/Logging.swiftmodule" "$out/logging/"
  logging_flags=(-I "$out/logging")
  while IFS= read -r object; do logging_objects+=("$object"); done \
    < <(find "$crypto_build/Logging.build" -name "*.o" ! -name "*.swiftmodule.o" | sort)
}

link() {  # link TARGET DIR MODULES...
  local target=$1 dir=$2; shift 2
  local libs=()
  for m in "$@"; do libs+=("$out/lib$m.a"); done
  local common=()
  grep -q "AnswerScript" "Fuzz/$dir"/*.swift && common=(Fuzz/Common/*.swift)
  swiftc "${flags[@]}" "${crypto_flags[@]}" "${logging_flags[@]}" -module-name "Fuzz${dir}" -I "$out" "Fuzz/$dir"/*.swift "${common[@]}" \
    "${libs[@]}" "${crypto_objects[@]}" "${logging_objects[@]}" -lstdc++ -o "$out/fuzz-$target"
  echo "built $out/fuzz-$target"
}

build() {
  case $1 in ndef|cbor|apdu|pn532) ;; *) use_logging ;; esac
  case $1 in
    ndef) module NFCBytes; module NDEF; link ndef NDEFDecoder NDEF NFCBytes ;;
    cbor) module NFCCBOR; link cbor CBORDecoder NFCCBOR ;;
    apdu) module ISO7816; link apdu APDU ISO7816 ;;
    pcsc) module NFCBytes; module ISO7816; module NFCTransport; module NFCPCSC
          link pcsc PCSC NFCPCSC NFCTransport ISO7816 NFCBytes ;;
    pn532) module NFCBytes; module NFCTransport; module NFCPN532; link pn532 PN532 NFCPN532 NFCTransport NFCBytes ;;
    tags|images) use_crypto; module NFCBytes; module NDEF; module ISO7816; module NFCTransport; module NFCCBOR
          module NFCCommandSets; module NFCTags; module NFCJSON; module NFCTripleDES; module NFCEllipticCurves; module NFCSimulator
          if [[ $1 == tags ]]; then link tags Tags NFCTags NFCCommandSets NFCSimulator NFCEllipticCurves NFCTripleDES NFCJSON NFCCBOR NFCTransport NDEF ISO7816 NFCBytes
          else link images Images NFCSimulator NFCEllipticCurves NFCTripleDES NFCJSON NFCCBOR NFCTransport ISO7816 NFCBytes; fi ;;
    applets) use_crypto; module NFCBytes; module ISO7816; module NFCTransport; module NFCCBOR
          module NFCOATH; module NFCPIV; module NFCFIDO; module NFCJSON; module NFCTripleDES; module NFCEllipticCurves; module NFCSimulator
          link applets Applets NFCOATH NFCPIV NFCFIDO NFCSimulator NFCEllipticCurves NFCTripleDES NFCJSON NFCCBOR NFCTransport ISO7816 NFCBytes ;;
    desfire) use_crypto; module NFCBytes; module NDEF; module ISO7816; module NFCTransport; module NFCCBOR; module NFCJSON
          module NFCTripleDES; module NFCEllipticCurves; module NFCSimulator; module NFCDESFire
          link desfire DESFire NFCDESFire NFCSimulator NFCEllipticCurves NFCTripleDES NFCJSON NFCCBOR NFCTransport NDEF ISO7816 NFCBytes ;;
    emrtd) use_crypto; module NFCBytes; module ISO7816; module NFCTransport; module NFCCBOR; module NFCJSON
          module NFCTripleDES; module NFCEllipticCurves; module NFCSimulator; module NFCeMRTD
          link emrtd EMRTD NFCeMRTD NFCSimulator NFCEllipticCurves NFCTripleDES NFCJSON NFCCBOR NFCTransport ISO7816 NFCBytes ;;
    config) module NFCBytes; module NDEF; module ISO7816; module NFCTransport; module NFCCommandSets; module NFCTags
          # OpenCoreNFC without the simulator and PC/SC traits (NFCReaders compiled without -D): no swift-crypto
          module NFCReaders; module OpenCoreNFC; module NFCBackgroundConfiguration
          link config Config NFCBackgroundConfiguration OpenCoreNFC NFCReaders NFCTags NFCCommandSets NFCTransport NDEF ISO7816 NFCBytes ;;
    *) echo "unknown fuzz target $1" >&2; exit 2 ;;
  esac
}

targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(ndef cbor apdu pcsc pn532 tags applets desfire images config emrtd)
for t in "${targets[@]}"; do build "$t"; done
