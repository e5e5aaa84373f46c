"""The MLIR front end: lexer, statement structure, lark grammar, IR and printer."""
