#!/usr/bin/env python3
"""Differential test of `nfc ndef decode/encode` against ndeflib (PyPI `ndeflib`, module `ndef`).

Direction A: ndeflib encodes random messages -> `nfc ndef decode --json --lines` decodes them;
             every record's tnf/type/id/payload and the typed fields of docs/ndef-json.md are
             compared with the values ndeflib was given. Chunked variants (hand-built from the
             ndeflib encoding) must decode to the same records.
Direction B: the same values as JSON -> `nfc ndef encode --lines` -> ndeflib decodes (strict) and
             the decoded values are compared with the values asked for.
Malformed:   mutated encodings are fed to ndeflib (strict and relax) and to our decoder (strict
             and --lenient); disagreements are counted and the interesting ones printed. Only a
             crash / missing output line fails this section.

Exit status: 0 when everything agrees, 1 on any mismatch in A or B, or any crash / line-count
difference, 2 on usage errors.
"""
import argparse
import io
import json
import random
import subprocess
import sys
import uuid
from collections import Counter, defaultdict

import ndef
from ndef import handover as nd_handover

TNF_NAMES = ["empty", "wellKnown", "media", "absoluteURI", "external", "unknown", "unchanged"]
URI_PREFIXES = ndef.UriRecord._prefix_strings  # 36 entries, index 0 is "no prefix"
ACTIONS = {"exec": "do", "save": "save", "edit": "open"}
SIG_TYPES = dict(ndef.SignatureRecord._mapping_signature_type)  # code -> name (0 -> None)
CERT_FORMATS = dict(ndef.SignatureRecord._mapping_certificate_format)
KNOWN_WKT = {"T", "U", "Sp", "Di", "Sig", "Hs", "Hr", "Hm", "Hi", "Hc", "ac", "cr", "err", "act",
             "s", "t", "Gc", "V", "D", "Te", "Tp", "Ts", "Cr", "ARC", "AAR"}
KNOWN_MEDIA = {"application/vnd.wfa.wsc", "application/vnd.wfa.p2p",
               "application/vnd.bluetooth.ep.oob", "application/vnd.bluetooth.le.oob",
               "application/vnd.wfa.nan", "application/vnd.bluetooth.secure.le.oob"}

# Every record type ndeflib can decode, usable at any position of a message (ndeflib otherwise
# switches to the first record's context, e.g. no Text records after a Handover Select record).
ALL_TYPES = dict(ndef.Record._known_types)
ALL_TYPES.update(ndef.HandoverRequestRecord._known_types)
ALL_TYPES.update(ndef.HandoverSelectRecord._known_types)
for _local in ("urn:nfc:wkt:ac", "urn:nfc:wkt:cr", "urn:nfc:wkt:err"):
    ALL_TYPES.pop(_local, None)  # local types: only meaningful inside a handover payload


# ---------------------------------------------------------------------------------------------
# helpers

def hx(b):
    return bytes(b).hex()


def raw_fields(rec):
    """(tnf, type bytes, id bytes, payload bytes) of an ndeflib record as it is encoded."""
    tnf, typ = rec._encode_type(rec.type)
    rid = rec.name.encode("latin-1")
    payload = bytes(rec.data)
    if tnf == 0:
        typ, rid, payload = b"", b"", b""
    elif tnf in (5, 6):
        typ = b""
    return tnf, bytes(typ), rid, payload


def latin(b):
    return bytes(b).decode("latin-1")


def norm(v):
    """Drop absent parts (None, "", [], {}) recursively and lower-case hex-ish strings' case
    where the JSON form allows either."""
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            x = norm(x)
            if x is None or (x == "" and k not in ("text", "uri")) or x == [] or x == {}:
                continue
            out[k] = x
        return out
    if isinstance(v, list):
        return [norm(x) for x in v]
    return v


class Spec:
    """One record: the ndeflib object, the typed JSON we expect from decode, the JSON request."""

    def __init__(self, nd, typed=None, request=None, kind="generic", check=None):
        self.nd = nd
        self.kind = kind
        self.typed = typed or {}
        tnf, typ, rid, payload = raw_fields(nd)
        self.tnf, self.type, self.id, self.payload = tnf, typ, rid, payload
        base = {"tnf": TNF_NAMES[tnf], "type": latin(typ), "id": latin(rid)}
        if request is None:
            request = dict(base, payload=hx(payload))
        self.request = request
        self.check = check  # fn(ndeflib typed record) -> list of (field, want, got)

    def expected_json(self):
        d = {"tnf": TNF_NAMES[self.tnf], "type": latin(self.type), "id": latin(self.id),
             "payload": hx(self.payload)}
        d.update(self.typed)
        return d


# ---------------------------------------------------------------------------------------------
# random values

ALPHABETS = [
    (30, "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,!?-"),
    (6, "äöüßéèêàçñÅØæœÿ"), (4, "αβγδεζηθλμπσωΩ"), (4, "абвгдеёжзийклмнЯ"),
    (4, "日本語の文章中文漢字東京"), (2, "한국어입니다"), (2, "עברית"), (2, "العربية"),
    (3, "🙂🚀𝄞😀👍🏽🇩🇪"), (2, "\t\n\"\\/'<>&%"), (1, "\u0000\u0001\u001f\u007f\u0085\u2028\ufeff"),
]
_ALPHA_W = [w for w, _ in ALPHABETS]


def rtext(rng, lo=0, hi=30):
    n = rng.randint(lo, hi) if rng.random() < 0.93 else rng.randint(100, 400)
    out = []
    alpha = rng.choices(ALPHABETS, _ALPHA_W)[0][1]
    for _ in range(n):
        if rng.random() < 0.2:
            alpha = rng.choices(ALPHABETS, _ALPHA_W)[0][1]
        out.append(rng.choice(alpha))
    return "".join(out)


def rname(rng, lo=1, hi=30):
    """Short non-empty text without control characters."""
    while True:
        s = "".join(c for c in rtext(rng, lo, hi) if c >= " " and c not in "\u007f\u0085\u2028\ufeff")
        if len(s) >= lo and len(s.encode()) <= 200:
            return s


LANGS = ["en", "de", "fr", "en-US", "de-CH", "zh-Hans-CN", "x-klingon", "i-default", "sr-Latn-RS",
         "es-419", "ja", "pt-BR"]


def rlang(rng):
    if rng.random() < 0.7:
        return rng.choice(LANGS)
    n = rng.choice([1, 2, 3, 8, 20, 35, 62, 63])
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
                   for _ in range(n))


def rbytes(rng, lo=0, hi=40):
    r = rng.random()
    if r < 0.88:
        n = rng.randint(lo, hi)
    elif r < 0.995:
        n = rng.randint(256, 2000)
    else:
        n = rng.randint(65536, 70000)
    return bytes(rng.getrandbits(8) for _ in range(n))


def rid(rng):
    r = rng.random()
    if r < 0.55:
        return None
    if r < 0.95:
        n = rng.choice([1, 1, 2, 5, 10, 30, 255]) if rng.random() < 0.9 else rng.randint(1, 255)
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789#-_./:") for _ in range(n))
    # one-character-per-byte IDs with bytes 0x80-0xFF (and a NUL)
    return "".join(chr(rng.choice([0, 0x41, 0x80, 0xA9, 0xE9, 0xFF])) for _ in range(rng.randint(1, 8)))


URI_TAILS = ["example.com", "example.com/path?q=1&r=2#frag", "hääyö.com/~user/", "日本.jp/パス",
             "user@example.com", "+1-555-0100", "a", "", "x/y/z.html", "host:8080/ü%20x",
             "id:sgtin:0614141.107346.2017", "[2001:db8::1]/", "münchen.de/straße?ä=ö"]
NO_PREFIX = ["geo:47.1,11.5", "market://details?id=org.x", "spotify:track:abc", "HTTP://EXAMPLE.COM",
             "about:blank", "data:text/plain,hi", "ms-settings:nfc", "intent://scan/#Intent;end",
             "https:/half", "urn", "", "ЯНДЕКС:путь", "Http://www.x"]


def ruri(rng, index=None):
    if index is None:
        index = rng.randrange(len(URI_PREFIXES)) if rng.random() < 0.9 else 0
    if index == 0:
        base = rng.choice(NO_PREFIX)
        # must not start with a defined prefix
        return base + (rng.choice(URI_TAILS) if rng.random() < 0.3 and base else "")
    tail = rng.choice(URI_TAILS) if rng.random() < 0.8 else rname(rng, 1, 20).replace(" ", "-")
    return URI_PREFIXES[index] + tail


# ---------------------------------------------------------------------------------------------
# record generators

def g_generic(rng, tnf=None):
    if tnf is None:
        tnf = rng.choice([0, 1, 1, 2, 2, 3, 4, 4, 5])
    name = rid(rng)
    data = rbytes(rng)
    if tnf == 0:
        return Spec(ndef.Record(), kind="empty")
    if tnf == 1:
        while True:
            t = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                        for _ in range(rng.choice([1, 2, 3, 5, 12])))
            if t not in KNOWN_WKT:
                break
        if rng.random() < 0.05:
            t = "urn:nfc:wkt:" + t if False else t + ":sub"  # colon in a well-known type
        return Spec(ndef.Record("urn:nfc:wkt:" + t, name, data), kind="wellKnown")
    if tnf == 2:
        t = rng.choice(["text/plain", "application/json", "image/png", "application/octet-stream",
                        "text/vcard", "application/vnd.example.thing+json", "Text/X-Mixed.Case",
                        "audio/mpeg", "application/x-" + "y" * rng.choice([1, 200])])
        return Spec(ndef.Record(t, name, data), typed={"mimeType": t}, kind="media")
    if tnf == 3:
        t = rng.choice(["https://example.com/schema#thing", "http://a/b",
                        "https://nfc.example.org/r?x=1", "ftp://host/path/" + "p" * rng.randint(1, 100)])
        return Spec(ndef.Record(t, name, data), kind="absoluteURI")
    if tnf == 4:
        dom = rng.choice(["example.com", "android.com", "nfcpy.org", "a.b.c.d", "x"])
        typ = rng.choice(["pkg", "mytype", "Type-1", "t", "a.b_c"])
        return Spec(ndef.Record("urn:nfc:ext:%s:%s" % (dom, typ), name, data),
                    typed={"external": {"domain": dom, "type": typ}}, kind="external")
    return Spec(ndef.Record("unknown", name, data), kind="unknown")


def utf16_decode_spec(b):
    """Text RTD: UTF-16 with an optional BOM, big-endian without one."""
    if b[:2] == b"\xfe\xff":
        return b[2:].decode("utf-16-be")
    if b[:2] == b"\xff\xfe":
        return b[2:].decode("utf-16-le")
    return b.decode("utf-16-be")


def text_values(rec):
    """(text, language, encoding) of a decoded ndeflib TextRecord, re-reading UTF-16 per the spec
    (ndeflib's 'UTF-16' codec assumes little-endian when there is no BOM)."""
    if rec.encoding == "UTF-16":
        lang_len = rec.data[0] & 0x3F
        # rec.data re-encodes; use the original payload kept by the caller if present
        payload = getattr(rec, "_orig_payload", None)
        if payload is not None:
            return utf16_decode_spec(payload[1 + lang_len:]), rec.language, "utf16"
    return rec.text, rec.language, "utf8" if rec.encoding == "UTF-8" else "utf16"


def g_text(rng):
    text = rtext(rng)
    lang = rlang(rng)
    enc = "UTF-16" if rng.random() < 0.35 else "UTF-8"
    nd = ndef.TextRecord(text, lang, enc)
    nd.name = rid(rng)
    e = "utf16" if enc == "UTF-16" else "utf8"
    typed = {"text": text, "language": lang, "encoding": e}
    req = dict(typed, id=nd.name)
    if rng.random() < 0.5:
        req.update(tnf="wellKnown", type="T")

    def check(r):
        if not isinstance(r, ndef.TextRecord):
            return [("class", "TextRecord", type(r).__name__)]
        got = text_values(r)
        return [] if got == (text, lang, e) else [("text", (text, lang, e), got)]
    return Spec(nd, typed, req, "text", check)


def g_uri(rng, index=None):
    iri = ruri(rng, index)
    nd = ndef.UriRecord(iri)
    nd.name = rid(rng)
    req = {"uri": iri, "id": nd.name}
    if rng.random() < 0.5:
        req.update(tnf="wellKnown", type="U")

    def check(r):
        if not isinstance(r, ndef.UriRecord):
            return [("class", "UriRecord", type(r).__name__)]
        return [] if r.iri == iri else [("uri", iri, r.iri)]
    return Spec(nd, {"uri": iri}, req, "uri", check)


def sp_values(r):
    return norm({
        "uri": r.resource.iri if r.resource is not None else None,
        "titles": [{"text": t.text, "language": t.language,
                    "encoding": "utf16" if t.encoding == "UTF-16" else "utf8"} for t in r.title_records],
        "action": ACTIONS[r.action] if r.action is not None else None,
        "size": r.resource_size,
        "type": r.resource_type,
        "icons": [{"type": i.type, "data": hx(i.data)} for i in r.icon_records],
    })


def g_smartposter(rng):
    iri = ruri(rng)
    nd = ndef.SmartposterRecord(iri)
    langs = []
    for _ in range(rng.choice([0, 1, 1, 2, 3, 4])):
        lang = rlang(rng)
        if lang in langs:
            continue
        langs.append(lang)
        nd.set_title(rtext(rng, 0, 25), lang, "UTF-16" if rng.random() < 0.3 else "UTF-8")
    if rng.random() < 0.5:
        nd.action = rng.choice(["exec", "save", "edit"])
    for _ in range(rng.choice([0, 0, 1, 2])):
        t = rng.choice(["image/png", "image/jpeg", "image/x-icon", "video/mp4"])
        data = (b"\x89PNG\r\n\x1a\n" if t == "image/png" else b"") + rbytes(rng, 0, 60)
        nd.add_icon(t, data)
    if rng.random() < 0.4:
        nd.resource_size = rng.choice([0, 1, 255, 65536, 0xFFFFFFFF, rng.getrandbits(32)])
    if rng.random() < 0.4:
        nd.resource_type = rng.choice(["text/html", "image/png", "application/x-ü", "", "audio/ogg"])
    nd.name = rid(rng)
    want = sp_values(nd)
    # titles with UTF-16 must say so; the typed form keeps everything, ""-type is dropped by norm
    req = {"smartPoster": want, "id": nd.name}
    if rng.random() < 0.5:
        req.update(tnf="wellKnown", type="Sp")

    def check(r):
        if not isinstance(r, ndef.SmartposterRecord):
            return [("class", "SmartposterRecord", type(r).__name__)]
        got = sp_values(r)
        return [] if got == want else [("smartPoster", want, got)]
    return Spec(nd, {"smartPoster": want}, req, "smartPoster", check)


def di_values(r):
    return norm({
        "manufacturer": r.vendor_name, "model": r.model_name, "deviceName": r.unique_name,
        "uuid": r.uuid_string, "firmwareVersion": r.version_string,
        "other": [{"tag": t, "value": hx(v)} for t, v in r.undefined_data_elements],
    })


def g_devinfo(rng):
    args = [rname(rng), rname(rng)]
    opt = [rname(rng) if rng.random() < 0.5 else None,
           str(uuid.UUID(int=rng.getrandbits(128))) if rng.random() < 0.5 else None,
           rname(rng, 1, 12) if rng.random() < 0.5 else None]
    undefined = [(rng.randint(5, 255), rbytes(rng, 0, 20)[:255]) for _ in range(rng.choice([0, 0, 1, 3]))]
    nd = ndef.DeviceInformationRecord(*(args + opt), *undefined)
    nd.name = rid(rng)
    want = di_values(nd)
    req = {"deviceInformation": want, "id": nd.name}
    if rng.random() < 0.5:
        req.update(tnf="wellKnown", type="Di")

    def check(r):
        if not isinstance(r, ndef.DeviceInformationRecord):
            return [("class", "DeviceInformationRecord", type(r).__name__)]
        got = di_values(r)
        return [] if got == want else [("deviceInformation", want, got)]
    return Spec(nd, {"deviceInformation": want}, req, "deviceInformation", check)


def sig_values(r):
    st = {v: k for k, v in SIG_TYPES.items()}[r.signature_type]
    cf = {v: k for k, v in CERT_FORMATS.items()}[r.certificate_format]
    return norm({
        "version": r._version, "signatureType": st, "hashType": r._hash_type,
        "signature": hx(r.signature) if r.signature else None,
        "signatureURI": r.signature_uri or None,
        "certificateFormat": cf,
        "certificates": [hx(c) for c in r.certificate_store],
        "certificateURI": r.certificate_uri or None,
    })


def g_signature(rng):
    code = rng.choice(list(SIG_TYPES))
    sig, sig_uri = None, None
    if code != 0:
        if rng.random() < 0.6:
            sig = rbytes(rng, 1, 128)[:60000]
        else:
            sig_uri = ruri(rng, rng.choice([1, 2, 3, 4]))
    certs = [rbytes(rng, 0, 300)[:60000] for _ in range(rng.choice([0, 0, 1, 2, 3]))]
    cert_uri = ruri(rng, rng.choice([3, 4])) if rng.random() < 0.3 else None
    nd = ndef.SignatureRecord(SIG_TYPES[code], "SHA-256", sig, sig_uri,
                              rng.choice(list(CERT_FORMATS.values())), certs, cert_uri)
    nd.name = rid(rng)
    want = sig_values(nd)
    req = {"signature": want, "id": nd.name}
    if rng.random() < 0.5:
        req.update(tnf="wellKnown", type="Sig")

    def check(r):
        if not isinstance(r, ndef.SignatureRecord):
            return [("class", "SignatureRecord", type(r).__name__)]
        got = sig_values(r)
        return [] if got == want else [("signature", want, got)]
    return Spec(nd, {"signature": want}, req, "signature", check)


def rmac(rng):
    return ":".join("%02X" % rng.getrandbits(8) for _ in range(6))


def g_bt_ep(rng, name=None):
    eir = []
    if rng.random() < 0.8:
        eir.append((rng.choice([0x09, 0x08]), rname(rng, 1, 20).encode()))
    if rng.random() < 0.6:
        eir.append((0x0D, bytes(rng.getrandbits(8) for _ in range(3))))
    if rng.random() < 0.5:
        eir.append((rng.choice([0x02, 0x03]), bytes([0x01, 0x11, 0x0B, 0x11])))
    if rng.random() < 0.4:
        eir.append((0x07, uuid.UUID(int=rng.getrandbits(128)).bytes_le))
    if rng.random() < 0.4:
        eir.append((0x0E, rbytes(rng, 16, 16)[:16]))
        eir.append((0x0F, rbytes(rng, 16, 16)[:16]))
    if rng.random() < 0.2:
        eir.append((0xFF, rbytes(rng, 2, 20)[:40]))
    nd = ndef.BluetoothEasyPairingRecord(rmac(rng), *eir)
    nd.name = name if name is not None else rid(rng)
    return Spec(nd, {"mimeType": nd.type}, kind="bluetoothEP")


def g_bt_le(rng, name=None):
    ad = [(0x1B, bytes(rng.getrandbits(8) for _ in range(6)) + bytes([rng.choice([0, 1])]))]
    ad.append((0x1C, bytes([rng.randint(0, 3)])))
    if rng.random() < 0.6:
        ad.append((0x09, rname(rng, 1, 20).encode()))
    if rng.random() < 0.5:
        ad.append((0x19, bytes(rng.getrandbits(8) for _ in range(2))))
    if rng.random() < 0.5:
        ad.append((0x01, bytes([rng.getrandbits(8)])))
    if rng.random() < 0.3:
        ad.append((0x10, rbytes(rng, 16, 16)[:16]))
    if rng.random() < 0.3:
        ad.append((0x22, rbytes(rng, 16, 16)[:16]))
        ad.append((0x23, rbytes(rng, 16, 16)[:16]))
    rng.shuffle(ad)
    nd = ndef.BluetoothLowEnergyRecord(*ad)
    nd.name = name if name is not None else rid(rng)
    return Spec(nd, {"mimeType": nd.type}, kind="bluetoothLE")


def tlv16(t, v):
    return t.to_bytes(2, "big") + len(v).to_bytes(2, "big") + v


def g_wsc(rng, name=None):
    nd = ndef.WifiSimpleConfigRecord()
    nd[0x104A] = [b"\x10"]
    ssid = rname(rng, 1, 32).encode()[:32]
    cred = (tlv16(0x1026, b"\x01") + tlv16(0x1045, ssid) +
            tlv16(0x1003, rng.choice([b"\x00\x01", b"\x00\x20", b"\x00\x22"])) +
            tlv16(0x100F, rng.choice([b"\x00\x01", b"\x00\x08", b"\x00\x0c"])) +
            tlv16(0x1027, rbytes(rng, 0, 64)[:64]) + tlv16(0x1020, bytes(6)))
    if rng.random() < 0.3:
        cred += tlv16(0x1049, b"\x00\x37\x2a\x02\x01\x01")
    nd[0x100E] = [cred]
    if rng.random() < 0.7:
        nd[0x1049] = [b"\x00\x37\x2a\x00\x01\x20"]
    if rng.random() < 0.3:
        # Password ID 7 (NFC connection handover): ndeflib prepends the 16-bit total length
        nd[0x102C] = [rbytes(rng, 20, 20)[:20] + b"\x00\x07"]
    if rng.random() < 0.3:
        nd[0x1011] = [rname(rng, 1, 20).encode()]
    if rng.random() < 0.3:
        nd[0x103C] = [bytes([rng.choice([1, 2, 3])])]
    nd.name = name if name is not None else rid(rng)
    return Spec(nd, {"mimeType": nd.type}, kind="wifiWSC")


def g_p2p(rng, name=None):
    nd = ndef.WifiPeerToPeerRecord()
    nd[0x1021] = [rname(rng, 1, 10).encode()]
    nd[0x1023] = [rname(rng, 1, 10).encode()]
    nd[0x1024] = [b"1.0"]
    nd[0x102C] = [rbytes(rng, 20, 20)[:20] + b"\x00\x10" + rbytes(rng, 16, 16)[:16]]
    nd[0x103C] = [b"\x01"]
    nd[0x1042] = [b"SN-" + str(rng.randint(0, 99999)).encode()]
    nd[0x1047] = [uuid.UUID(int=rng.getrandbits(128)).bytes]
    nd[0x1049] = [b"\x00\x37\x2a\x00\x01\x20"]
    nd[0x02] = [bytes([rng.getrandbits(8), rng.getrandbits(8)])]
    dev_name = rname(rng, 1, 10).encode()
    nd[0x0D] = [bytes(6) + b"\x00\x88" + bytes(8) + b"\x00" + tlv16(0x1011, dev_name)]
    nd[0x13] = [b"XX\x04" + b"\x51\x06\x00"]
    nd.name = name if name is not None else rid(rng)
    return Spec(nd, {"mimeType": nd.type}, kind="wifiP2P")


CARRIER_GENS = [g_bt_ep, g_bt_le, g_wsc, g_p2p]


def g_handover(rng):
    """A whole handover message: Hs/Hr/Hm/Hi first, then carrier (and auxiliary) records."""
    kind = rng.choice(["Hs", "Hs", "Hr", "Hr", "Hm", "Hi"])
    carriers, acs = [], []
    # A Handover Request carries at least one alternative carrier (Connection Handover 1.4,
    # Handover Request Record); ndeflib accepts none, our strict decoder rightly does not.
    for i in range(rng.choice([1, 1, 2, 3] if kind == "Hr" else [0, 1, 1, 2, 3])):
        ref = rng.choice(["0", "1", "bt", "wifi", "c%d" % i, "ü"]) + str(i)
        if kind == "Hr" and rng.random() < 0.3:
            ct = rng.choice(["application/vnd.bluetooth.ep.oob", "application/vnd.wfa.wsc",
                             "urn:nfc:ext:example.com:carrier"])
            nd = ndef.HandoverCarrierRecord(ct, rbytes(rng, 0, 10)[:40], ref)
            carriers.append(Spec(nd, kind="handoverCarrier"))
        else:
            carriers.append(rng.choice(CARRIER_GENS)(rng, name=ref))
        aux = []
        if rng.random() < 0.3:
            aref = "aux%d" % i
            di = g_devinfo(rng)
            di.nd.name = aref
            di.id = aref.encode()
            di.request["id"] = aref
            carriers.append(di)
            aux.append(aref)
        acs.append((rng.choice(["inactive", "active", "activating", "unknown"]), ref, *aux))
    if kind == "Hs":
        version = rng.choice(["1.2", "1.3", "1.4", "1.5", "1.0", "1.1"])
        err = None
        if version >= "1.2" and rng.random() < 0.25:
            reason = rng.choice([1, 2, 3, 7])
            err = (reason, rng.randint(0, 255) if reason in (1, 3) else
                   rng.getrandbits(32) if reason == 2 else bytes(rng.getrandbits(8) for _ in range(3)))
        head = ndef.HandoverSelectRecord(version, err, *acs)
    elif kind == "Hr":
        version = rng.choice(["1.2", "1.3", "1.5", "1.1"])
        crn = rng.getrandbits(16) if version >= "1.2" else None
        head = ndef.HandoverRequestRecord(version, crn, *acs)
    elif kind == "Hm":
        head = ndef.HandoverMediationRecord(rng.choice(["1.3", "1.5"]), *acs)
    else:
        head = ndef.HandoverInitiateRecord(rng.choice(["1.3", "1.5"]), *acs)
    head.name = rid(rng) if rng.random() < 0.2 else None
    return [Spec(head, kind="handover" + kind)] + carriers


RECORD_GENS = [
    (20, g_generic), (14, g_text), (14, g_uri), (8, g_smartposter), (6, g_devinfo),
    (6, g_signature), (3, g_bt_ep), (3, g_bt_le), (3, g_wsc), (2, g_p2p),
]
_GEN_W = [w for w, _ in RECORD_GENS]


def gen_message(rng, i):
    # the first cases walk every TNF, every URI prefix (plus none), and every record kind once
    if i < 6:
        return [g_generic(rng, tnf=i)]
    if i < 6 + len(URI_PREFIXES):
        return [g_uri(rng, index=i - 6)]
    if i < 6 + len(URI_PREFIXES) + len(RECORD_GENS):
        return [RECORD_GENS[i - 6 - len(URI_PREFIXES)][1](rng)]
    if rng.random() < 0.12:
        return g_handover(rng)
    n = rng.choice([1, 1, 1, 2, 2, 3, 4, 5, 8]) if rng.random() < 0.99 else rng.randint(50, 200)
    return [rng.choices(RECORD_GENS, _GEN_W)[0][1](rng) for _ in range(n)]


def encode_message(specs):
    return b"".join(ndef.message_encoder([s.nd for s in specs]))


# ---------------------------------------------------------------------------------------------
# hand-built framing (chunking, mutations)

def header(mb, me, cf, tnf, typ, rid_, plen):
    sr = plen < 256
    b0 = (0x80 if mb else 0) | (0x40 if me else 0) | (0x20 if cf else 0) | (0x10 if sr else 0) | \
         (0x08 if rid_ else 0) | tnf
    out = bytes([b0, len(typ)]) + (bytes([plen]) if sr else plen.to_bytes(4, "big"))
    if rid_:
        out += bytes([len(rid_)])
    return out


def encode_chunked(rng, specs):
    """Re-frame ndeflib's records, splitting some payloads into chunks (NDEF 1.0 §2.3.3).
    Returns (bytes, number of chunked records) or (None, 0) when nothing could be chunked."""
    out, n_chunked = [], 0
    for i, s in enumerate(specs):
        first, last = i == 0, i == len(specs) - 1
        split = s.tnf != 0 and len(s.payload) >= 2 and rng.random() < 0.7
        if not split:
            out.append(header(first, last, False, s.tnf, s.type, s.id, len(s.payload)) + s.type + s.id + s.payload)
            continue
        n_chunked += 1
        k = rng.randint(2, min(6, len(s.payload)))
        cuts = sorted(rng.sample(range(1, len(s.payload)), k - 1))
        pieces = [s.payload[a:b] for a, b in zip([0] + cuts, cuts + [len(s.payload)])]
        for j, p in enumerate(pieces):
            cf = j < len(pieces) - 1
            if j == 0:
                out.append(header(first, False, cf, s.tnf, s.type, s.id, len(p)) + s.type + s.id + p)
            else:
                out.append(header(False, last and not cf, cf, 6, b"", b"", len(p)) + p)
    return (b"".join(out), n_chunked) if n_chunked else (None, 0)


def walk(b):
    """Record boundaries of a well-formed encoding: list of dicts with offsets and header values."""
    recs, off = [], 0
    while off + 2 < len(b):
        if off + 3 > len(b) or (not b[off] & 0x10 and off + 6 > len(b)):
            break  # garbage tail: return the records walked so far
        b0, tl = b[off], b[off + 1]
        p = off + 2
        if b0 & 0x10:
            pl = b[p]
            p += 1
        else:
            pl = int.from_bytes(b[p:p + 4], "big")
            p += 4
        il = 0
        if b0 & 0x08:
            il = b[p]
            p += 1
        recs.append({"start": off, "len_off": off + 2, "hdr_end": p, "tl": tl, "il": il, "pl": pl,
                     "pay": p + tl + il, "end": p + tl + il + pl, "b0": b0})
        off = p + tl + il + pl
    return recs


def mutate(rng, b):
    b = bytearray(b)
    recs = walk(bytes(b))
    r = rng.choice(recs)
    kinds = ["truncate", "clear_mb", "set_mb_later", "clear_me", "set_me_middle", "set_cf_last",
             "set_cf_middle", "tnf7", "tnf_other", "flip_sr", "flip_il", "payload_len", "type_len",
             "append", "payload_byte", "any_byte", "empty"]
    kind = rng.choice(kinds)
    if kind == "truncate":
        return kind, bytes(b[:rng.randrange(1, len(b))]) if len(b) > 1 else b""
    if kind == "empty":
        return kind, b""
    if kind == "clear_mb":
        b[0] &= ~0x80
    elif kind == "set_mb_later" and len(recs) > 1:
        b[rng.choice(recs[1:])["start"]] |= 0x80
    elif kind == "clear_me":
        b[recs[-1]["start"]] &= ~0x40
    elif kind == "set_me_middle" and len(recs) > 1:
        b[rng.choice(recs[:-1])["start"]] |= 0x40
    elif kind == "set_cf_last":
        b[recs[-1]["start"]] |= 0x20
    elif kind == "set_cf_middle" and len(recs) > 1:
        b[rng.choice(recs[:-1])["start"]] |= 0x20
    elif kind == "tnf7":
        b[r["start"]] |= 0x07
    elif kind == "tnf_other":
        b[r["start"]] = (b[r["start"]] & 0xF8) | rng.choice([0, 1, 2, 3, 4, 5, 6])
    elif kind == "flip_sr":
        b[r["start"]] ^= 0x10
    elif kind == "flip_il":
        b[r["start"]] ^= 0x08
    elif kind == "payload_len":
        d = rng.choice([-5, -1, 1, 2, 200])
        if r["b0"] & 0x10:
            b[r["len_off"]] = (r["pl"] + d) % 256
        else:
            b[r["len_off"]:r["len_off"] + 4] = ((r["pl"] + d) % (1 << 32)).to_bytes(4, "big")
    elif kind == "type_len":
        b[r["start"] + 1] = (r["tl"] + rng.choice([-1, 1, 3])) % 256
    elif kind == "append":
        b += bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 4)))
    elif kind == "payload_byte" and r["pl"] > 0:
        i = rng.randrange(r["pay"], r["end"])
        b[i] = rng.choice([0x00, 0xFF, 0x80, 0x3F, 0x24, b[i] ^ (1 << rng.randrange(8))])
    else:
        kind = "any_byte"
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    return kind, bytes(b)


# ---------------------------------------------------------------------------------------------
# ndeflib reference decoding

def nd_frames(b, errors="strict"):
    """ndeflib framing decode (no typed records), chunks reassembled using the CF flags.
    Returns (records, None) where records are (tnf, type, id, payload) or (None, error)."""
    try:
        recs = list(ndef.message_decoder(b, errors, known_types={}))
    except Exception as e:  # ndeflib raises DecodeError, and on odd input also others
        return None, "%s: %s" % (type(e).__name__, e)
    # CF flags of each raw record, from the headers ndeflib just accepted
    try:
        flags = [r["b0"] for r in walk(b)][:len(recs)]
    except Exception:
        flags = []
    flags += [None] * (len(recs) - len(flags))
    out, pending = [], None
    for rec, b0 in zip(recs, flags):
        tnf, typ, rid_, payload = raw_fields(rec)
        if b0 is None:
            b0 = 0
        elif tnf != 0:
            tnf = b0 & 7  # ndeflib re-derives the TNF from the type string (TNF 2 "https://x" -> 3)
        if pending is not None:
            if tnf != 6:
                return None, "ndeflib-accepted: record after a CF record is not TNF 6 (NDEF §2.3.3)"
            pending[3] += payload
        else:
            if tnf == 6:
                return None, "ndeflib-accepted: TNF 6 outside a chunked record (NDEF §2.3.3)"
            pending = [tnf, typ, rid_, bytearray(payload)]
        if not b0 & 0x20:
            out.append((pending[0], pending[1], pending[2], bytes(pending[3])))
            pending = None
    if pending is not None:
        return None, "ndeflib-accepted: message ends inside a chunked record"
    return out, None


def nd_typed(b, errors="strict"):
    try:
        return list(ndef.message_decoder(b, errors, known_types=ALL_TYPES)), None
    except Exception as e:
        return None, "%s: %s" % (type(e).__name__, e)


# ---------------------------------------------------------------------------------------------
# running our CLI

class CLIError(Exception):
    pass


def run_cli(nfc, args, lines, what):
    data = "".join(l + "\n" for l in lines).encode()
    try:
        p = subprocess.run([nfc] + args, input=data, capture_output=True, timeout=900)
    except subprocess.TimeoutExpired:
        raise CLIError("%s: timed out" % what)
    # split on "\n" only: JSON may carry U+2028, U+0085, U+001C… unescaped, which splitlines() splits on
    out = p.stdout.decode("utf-8", errors="replace").split("\n")
    if out and out[-1] == "":
        out.pop()
    problems = []
    if p.returncode not in (0, 1) or p.returncode < 0:
        problems.append("%s: exit status %d; stderr: %s" % (what, p.returncode, p.stderr.decode(errors="replace")[-2000:]))
    if len(out) != len(lines):
        problems.append("%s: %d input lines but %d output lines (exit %d; stderr: %s)" % (
            what, len(lines), len(out), p.returncode, p.stderr.decode(errors="replace")[-1000:]))
        if len(out) < len(lines):
            problems.append("  first line without output (#%d): %s" % (len(out), lines[len(out)][:400]))
    return out, problems


def parse_json_line(s):
    try:
        return json.loads(s)
    except ValueError:
        return {"error": {"code": "unparseable-output", "reason": s[:300]}}


# ---------------------------------------------------------------------------------------------
# comparisons

def cmp_typed(key, want, got):
    if key == "mimeType":
        return isinstance(got, str) and got.lower() == want.lower()
    if key in ("smartPoster", "deviceInformation", "signature", "external"):
        g = norm(got) if isinstance(got, dict) else got
        if key == "deviceInformation" and isinstance(g, dict) and "uuid" in g:
            g = dict(g, uuid=str(g["uuid"]).lower())
        if isinstance(g, dict):
            g = {k: v for k, v in g.items() if k in want or k in ("titles", "icons", "other", "certificates")}
            g = norm(g)
        return g == want
    return got == want


def compare_records(specs, got_records):
    """Direction A: our decoded JSON records vs. the values ndeflib encoded."""
    diffs = []
    if len(got_records) != len(specs):
        return [("record count", len(specs), len(got_records))]
    for i, (s, g) in enumerate(zip(specs, got_records)):
        want = s.expected_json()
        for k in ("tnf", "type", "id", "payload"):
            gv = g.get(k)
            if k == "payload" and isinstance(gv, str):
                gv = gv.lower()
            if gv != want[k]:
                diffs.append(("record %d %s" % (i, k), want[k], gv))
        if "invalid" in g:
            diffs.append(("record %d invalid" % i, "(valid %s record)" % s.kind, g["invalid"]))
        for k, wv in s.typed.items():
            if not cmp_typed(k, wv, g.get(k)):
                diffs.append(("record %d %s" % (i, k), wv, g.get(k)))
    return diffs


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=3000, help="messages to generate (default 3000)")
    ap.add_argument("--seed", type=int, default=1, help="RNG seed (default 1)")
    ap.add_argument("--nfc", default=".build/debug/nfc", help="path to the nfc binary")
    ap.add_argument("--malformed", type=int, default=None, help="malformed inputs (default: count)")
    ap.add_argument("--max-report", type=int, default=20, help="mismatches printed per section")
    ap.add_argument("--self-check", action="store_true",
                    help="check the generators against ndeflib only (no nfc binary needed)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    n_malformed = a.count if a.malformed is None else a.malformed

    # ---- generate
    cases = []  # (specs, hex)
    unreadable = Counter()
    for i in range(a.count):
        specs = gen_message(rng, i)
        b = encode_message(specs)
        got, err = nd_typed(b)  # ndeflib must read back its own encoding
        if err:
            # ndeflib writes some records its own strict decoder refuses (a Signature record with
            # no signature and no certificate is 6 bytes, its decoder wants at least 7)
            for s in specs:
                one = b"".join(ndef.message_encoder([s.nd]))
                if nd_typed(one)[1]:
                    s.nd_unreadable = nd_typed(one)[1]
                    unreadable[s.kind] += 1
            if not any(getattr(s, "nd_unreadable", None) for s in specs):
                print("generator bug: ndeflib cannot decode its own message %s: %s" % (hx(b)[:200], err))
                return 2
        cases.append((specs, b))
    chunked = []
    for specs, b in cases:
        if rng.random() < 0.15:
            cb, n = encode_chunked(rng, specs)
            if cb:
                chunked.append((specs, cb))
    n_records = sum(len(s) for s, _ in cases)
    kinds = Counter(sp.kind for s, _ in cases for sp in s)
    print("generated %d messages (%d records), %d chunked variants; kinds: %s" % (
        len(cases), n_records, len(chunked), ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    if unreadable:
        print("note: ndeflib cannot strictly decode some records it encoded itself: %s "
              "(direction B compares those byte-for-byte instead)" % dict(unreadable))
    if a.self_check:
        # JSON requests must be serialisable, chunked encodings must reassemble under our own rules
        for specs, _ in cases:
            for s in specs:
                json.dumps(s.request, ensure_ascii=False)
        for specs, cb in chunked:
            recs, err = nd_frames(cb)
            assert err is None, err
            assert recs == [(s.tnf, s.type, s.id, s.payload) for s in specs]
        print("self-check: ok")
        return 0

    failures = []
    report = a.max_report

    # ---- Direction A: ndeflib encodes -> we decode
    all_a = cases + chunked
    out, problems = run_cli(a.nfc, ["ndef", "decode", "--json", "--lines"], [hx(b) for _, b in all_a],
                            "decode (direction A)")
    failures += problems
    mism_a = []
    for idx, ((specs, b), line) in enumerate(zip(all_a, out)):
        g = parse_json_line(line)
        if "error" in g:
            mism_a.append((b, idx >= len(cases), [("decode", "records", g["error"])]))
            continue
        d = compare_records(specs, g.get("records", []))
        if d:
            mism_a.append((b, idx >= len(cases), d))
    print("\n== Direction A (ndeflib encodes, nfc decodes): %d messages (%d chunked), %d records: %s" % (
        len(all_a), len(chunked), n_records + sum(len(s) for s, _ in chunked),
        "all agree" if not mism_a and not problems else "%d mismatching messages" % len(mism_a)))
    by_field = Counter()
    for _, _, d in mism_a:
        for f, _, _ in d:
            by_field[f.split(" ", 2)[-1] if f.startswith("record") else f] += 1
    if by_field:
        print("   mismatching fields: " + ", ".join("%s %d" % kv for kv in by_field.most_common()))
    for b, ch, d in mism_a[:report]:
        print("-- %s%s" % ("[chunked] " if ch else "", hx(b) if len(b) < 400 else hx(b)[:800] + "…(%d bytes)" % len(b)))
        for f, w, g in d[:6]:
            print("   %s:\n     ndeflib: %s\n     nfc:     %s" % (f, json.dumps(w, ensure_ascii=False)[:600],
                                                                json.dumps(g, ensure_ascii=False)[:600]))
    if mism_a:
        failures.append("direction A: %d mismatching messages" % len(mism_a))

    # ---- Direction B: we encode -> ndeflib decodes
    reqs = [json.dumps({"records": [s.request for s in specs]}, ensure_ascii=False, separators=(",", ":"))
            for specs, _ in cases]
    out, problems = run_cli(a.nfc, ["ndef", "encode", "--lines"], reqs, "encode (direction B)")
    failures += problems
    mism_b, identical, typed_total = [], 0, 0
    for (specs, b), req, line in zip(cases, reqs, out):
        line = line.strip()
        if line.startswith("{"):
            mism_b.append((req, line, [("encode", "hex", parse_json_line(line).get("error"))]))
            continue
        try:
            ours = bytes.fromhex(line)
        except ValueError:
            mism_b.append((req, line, [("encode", "hex", "not hex: " + line[:200])]))
            continue
        if ours == b:
            identical += 1
        d = []
        frames, err = nd_frames(ours)
        if err:
            d.append(("ndeflib strict framing", "ok", err))
        else:
            if len(frames) != len(specs):
                d.append(("record count", len(specs), len(frames)))
            for i, (s, f) in enumerate(zip(specs, frames)):
                if (f[0], f[1], f[2]) != (s.tnf, s.type, s.id):
                    d.append(("record %d tnf/type/id" % i, [s.tnf, latin(s.type), latin(s.id)],
                              [f[0], latin(f[1]), latin(f[2])]))
                if s.check is None and f[3] != s.payload:
                    d.append(("record %d payload" % i, hx(s.payload), hx(f[3])))
        typed, terr = nd_typed(ours)
        if terr and not err and any(getattr(s, "nd_unreadable", None) for s in specs):
            # decode again without the types ndeflib cannot read back; compare those raw
            skip = {s.nd.type for s in specs if getattr(s, "nd_unreadable", None)}
            typed = list(ndef.message_decoder(ours, "strict", known_types={k: v for k, v in ALL_TYPES.items()
                                                                             if k not in skip}))
            for i, (s, r) in enumerate(zip(specs, typed)):
                if s.nd.type in skip:
                    if frames[i][3] != s.payload:
                        d.append(("record %d payload" % i, hx(s.payload), hx(frames[i][3])))
                elif s.check is not None:
                    typed_total += 1
                    r._orig_payload = frames[i][3]
                    d += [("record %d %s" % (i, f), w, g) for f, w, g in s.check(r)]
        elif terr and not err:
            d.append(("ndeflib strict typed decode", "ok", terr))
        elif typed is not None and frames is not None and len(typed) == len(specs):
            for i, (s, r) in enumerate(zip(specs, typed)):
                if s.check is not None:
                    typed_total += 1
                    r._orig_payload = frames[i][3] if i < len(frames) else None
                    for f, w, g in s.check(r):
                        d.append(("record %d %s" % (i, f), w, g))
        if d:
            mism_b.append((req, line, d))
    print("\n== Direction B (nfc encodes, ndeflib decodes): %d messages, %d records (%d typed): %s" % (
        len(cases), n_records, typed_total,
        "all agree" if not mism_b and not problems else "%d mismatching messages" % len(mism_b)))
    print("   byte-identical to ndeflib's own encoding: %d of %d messages" % (identical, len(cases)))
    for req, line, d in mism_b[:report]:
        print("-- request: %s" % req[:700])
        print("   nfc hex: %s" % line[:700])
        for f, w, g in d[:6]:
            print("   %s:\n     asked:   %s\n     ndeflib: %s" % (f, json.dumps(w, ensure_ascii=False, default=repr)[:600],
                                                                json.dumps(g, ensure_ascii=False, default=repr)[:600]))
    if mism_b:
        failures.append("direction B: %d mismatching messages" % len(mism_b))

    # ---- Malformed input
    mut = []
    for _ in range(n_malformed):
        specs, b = rng.choice(cases + chunked)
        kind, mb = mutate(rng, b)
        mut.append((kind, mb))
    lines = [hx(m) for _, m in mut]
    out_s, problems_s = run_cli(a.nfc, ["ndef", "decode", "--json", "--lines"], lines, "decode (malformed, strict)")
    out_l, problems_l = run_cli(a.nfc, ["ndef", "decode", "--json", "--lines", "--lenient"], lines,
                                "decode (malformed, --lenient)")
    failures += problems_s + problems_l
    cat = Counter()
    examples = defaultdict(list)
    for (kind, mb), ls, ll in zip(mut, out_s, out_l):
        ours, ours_l = parse_json_line(ls), parse_json_line(ll)
        if ours.get("error", {}).get("code") == "unparseable-output":
            failures.append("malformed: unparseable output for %s: %s" % (hx(mb)[:200], ls[:200]))
        frames, ferr = nd_frames(mb)
        if frames:  # typed check on the reassembled records (ndeflib does not join chunks)
            rebuilt = b"".join(header(i == 0, i == len(frames) - 1, False, f[0], f[1], f[2], len(f[3])) + f[1] + f[2] + f[3]
                               for i, f in enumerate(frames))
            typed, terr = nd_typed(rebuilt)
        else:
            typed, terr = nd_typed(mb)
        we_err = "error" in ours
        ex = (kind, hx(mb), ferr or terr, ours.get("error") or [r.get("invalid") for r in ours.get("records", [])])
        invalid_any = any("invalid" in r for r in ours.get("records", []))
        if ferr and we_err:
            c = "both reject"
        elif ferr and invalid_any and ("can not convert the record type string" in ferr):
            c = "ndeflib rejects the type string, we mark the record invalid"
        elif ferr and not we_err:
            c = "WE ACCEPT, ndeflib strict rejects (framing)"
        elif not ferr and we_err:
            c = "ndeflib accepts, we reject: %s" % ours["error"].get("code")
        else:
            got = [(TNF_NAMES.index(r.get("tnf")) if r.get("tnf") in TNF_NAMES else r.get("tnf"),
                    r.get("type", "").encode("latin-1"), r.get("id", "").encode("latin-1"),
                    bytes.fromhex(r.get("payload", ""))) for r in ours.get("records", [])]
            if got != frames:
                c = "BOTH ACCEPT, RECORDS DIFFER"
                ex = ex + ([(f[0], latin(f[1]), latin(f[2]), hx(f[3])) for f in frames],)
            else:
                invalid = any("invalid" in r for r in ours.get("records", []))
                if terr and not invalid:
                    c = "WE ACCEPT payload, ndeflib strict typed decode rejects"
                elif not terr and invalid:
                    c = "we mark a record invalid, ndeflib typed decode accepts"
                else:
                    c = "both accept (agree)" if not terr else "both flag the payload"
        cat[c] += 1
        examples[c].append(ex)
        # lenient vs ndeflib relax (framing only)
        rframes, rerr = nd_frames(mb, "relax")
        lerr = "error" in ours_l
        if bool(rerr) != lerr:
            lc = ("lenient: we reject, ndeflib relax accepts: %s" % ours_l["error"].get("code")) if lerr else \
                 "lenient: WE ACCEPT, ndeflib relax rejects"
            cat[lc] += 1
            examples[lc].append((kind, hx(mb), rerr, ours_l.get("error")))
    print("\n== Malformed input: %d mutated messages (strict; and --lenient vs ndeflib relax)" % len(mut))
    for c, n in sorted(cat.items(), key=lambda kv: -kv[1]):
        print("   %5d  %s" % (n, c))
    interesting = [c for c in examples if c.startswith(("WE ACCEPT", "BOTH ACCEPT", "we mark", "lenient: WE",
                                                        "ndeflib accepts, we reject", "lenient: we reject"))]
    for c in interesting:
        print("-- %s (%d; first %d):" % (c, len(examples[c]), min(report, len(examples[c]))))
        seen_kinds = Counter()
        for ex in examples[c]:
            if seen_kinds[ex[0]] >= max(2, report // 5):
                continue
            seen_kinds[ex[0]] += 1
            if sum(seen_kinds.values()) > report:
                break
            print("   [%s] %s" % (ex[0], ex[1][:300]))
            print("       ndeflib: %s" % (str(ex[2])[:300] if ex[2] else "accepts"))
            print("       nfc:     %s" % json.dumps(ex[3], ensure_ascii=False)[:300])
            if len(ex) > 4:
                print("       ndeflib records: %s" % json.dumps(ex[4], ensure_ascii=False)[:300])

    print()
    if failures:
        print("FAILED:")
        for f in failures:
            print("  " + f)
        return 1
    print("OK: %d messages, %d records: all agree (both directions, %d chunked variants); "
          "malformed: %d inputs, no crash" % (len(cases), n_records, len(chunked), len(mut)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
