print("nfc")
