print("core-probe")
