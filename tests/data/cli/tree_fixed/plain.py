print("not a pl file")
