import json
docs = {
 "store": '{"store":{"book":[{"category":"reference","author":"Nigel Rees","title":"Sayings of the Century","price":8.95},{"category":"fiction","author":"Evelyn Waugh","title":"Sword of Honour","price":12.99},{"category":"fiction","author":"Herman Melville","title":"Moby Dick","isbn":"0-553-21311-3","price":8.99},{"category":"fiction","author":"J. R. R. Tolkien","title":"The Lord of the Rings","isbn":"0-395-19395-8","price":22.99}],"bicycle":{"color":"red","price":19.95}},"expensive":10,"data":null}',
 "arr": '[0,1,2,3,4,5,6,7,8,9]',
 "nested": '{"a":{"b":{"c":{"d":{"e":{"f":{"g":1}}}}}},"a2":[[[[[[[1]]]]]]]}',
 "dup": '{"a":1,"a":2,"b":{"a":3},"c":[{"a":4},{"a":5,"a":6}]}',
 "scalars": '{"n":1e21,"m":1.5e-7,"i":12345678901234567890,"s":"<tag>&\\u2028 \\"q\\" \\\\ é","t":true,"f":false,"z":null,"neg":-0,"big":100000000000000000000}',
 "keys": '{"a b":1,"a\'b":2,"a\\"b":3,"ключ":4,"_x1":5,"1a":6,"":7}',
 "mixed": '{"x":[{"y":[1,2,{"y":3}]},{"y":{"y":4}}],"y":0}',
}
paths = ["", "$", "$.store", "$.store.book", "$.store.book[0]", "$.store.book[-1]", "$.store.book[4]", "$.store.book[-5]",
 "$.store.book[0].title", "$.store.book[*].author", "$.store.*", "$.*", "$..price", "$..author", "$..book[2]",
 "$.store.book[0,1]", "$.store.book[1,0,1]", "$.store.book[0:2]", "$.store.book[:2]", "$.store.book[1:]", "$.store.book[-2:]",
 "$.store.book[:-1]", "$.store.book[2:1]", "$.store.book[0:0]", "$.store.book[0:-0]", "$.store.book[:]", "$.store.book[0:10]",
 "$['store']['book'][0]['title']", "$['store','expensive']", "$['expensive','store','expensive']", "$['nope']", "$.nope", "$.store.book.title",
 "$.data", "$.expensive", "$.expensive.x", "$[0]", "$[*]", "$[-1]", "$[-11]", "$[10]", "$[1,3,5]", "$[-1,-2]", "$[2:5]", "$[-3:]", "$[:-7]", "$[-20:2]", "$[5:100]", "$[3:-20]",
 "$[007]", "$[-0]", "$[-]", "$[2147483647]", "$[2147483648]", "$[-2147483648]", "$[-2147483649]", "$[1:2147483648]", "$[1:a]", "$[1:2:3]", "$[1,]", "$[1,'a']", "$['a',1]",
 "$[", "$]", "$.", "$..", "$..*", "$..[0]", "$.*.*", "$[*", "$[*]]", "$[*][*]", "$.a.b.c.d.e.f", "$.a.b.c.d.e.f.g", "$.a.b.c.d.e", "$.a2[0][0][0][0][0][0]", "$.a2[0][0][0][0][0][0][0]",
 "$..g", "$..a", "$..y", "$.x..y", "$..c", "$.a..g", "$.a.b..g", "$['a']", "$.a", "$.b.a", "$.c[*].a", "$.c[1].a", "$['a','a']", "$['a','b']",
 "$.n", "$.m", "$.i", "$.s", "$.t", "$.f", "$.z", "$.neg", "$.big", "$.*", "$['a b']", "$['a\\'b']", "$['a\\\"b']", "$['a\"b']", "$['ключ']", "$._x1", "$.1a", "$['1a']", "$['']",
 "$['\\u0061 b']", "$['a\\ b']", "$''", "$'a'", "x", "store", ".store", "$store", "$ .store", "$.store ", "$.store[ 0]", "$['store'", "$['store]", "$[']", "$['a','b'", "$.a[0]['b']",
 "$..['a']", "$.a.*.*", "$.*['a']", "$.*[0]", "$.x[0].y[2].y", "$.x[*].y", "$.x[*].y[*]", "$.x[-1:]", "$.x[0:1][0]", "$..y[0]", "$[::]", "$[:]", "$[0:]", "$.$", "$$", "$.store$", "$[\"store\"]",
 "$.store.book[?(@.price<10)]", "$.store.book[0,1].title", "$.store..price", "$.store.book[0:1].title", "$[-1:-1]", "$[-2:-1]", "$[1:-9]",
]
for name, d in docs.items():
    for p in paths:
        print(json.dumps({"Doc": d, "Path": p}))
# bodies
for d in ['{"a":1}xyz', '123abc', '123 ', '"str"', 'null', '', '   ', '{"a":1', '[1,2', '1e400', '{"a":1e400}', '{"a":"\\ud800"}', 'tru', '[1,2] [3]', '{"a":01}', '\ufeff{"a":1}']:
    for p in ["", "$", "$.a", "$[0]", "$.*"]:
        print(json.dumps({"Doc": d, "Path": p}))
# limits
big = '[' + ','.join(str(i) for i in range(1100)) + ']'
big2 = '[' + ','.join('[%d,%d]' % (i,i) for i in range(600)) + ']'
objs = '{' + ','.join('"k%d":%d' % (i,i) for i in range(1030)) + '}'
for d in [big, big2, objs]:
    for p in ["", "$", "$.*", "$[*]", "$[0:1024]", "$[0:1025]", "$[*][*]", "$[*][0]", "$[0:600][0,1]", "$..k1", "$['k1','k2']", "$..x"]:
        print(json.dumps({"Doc": d, "Path": p}))
