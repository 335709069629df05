print("kiosk-bench: not yet")
