print("dialogmock-adapter: not built yet")
