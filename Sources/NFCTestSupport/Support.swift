import NDEF
