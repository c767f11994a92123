print("settings-editor")
