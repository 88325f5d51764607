"""The front end: Lark grammars and the code that turns rule text into plain data and expression trees."""
