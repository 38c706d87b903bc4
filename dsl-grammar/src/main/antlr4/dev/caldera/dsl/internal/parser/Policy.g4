// The grammar of Caldera's .policy files (see dsl-grammar/README.md and shared/spec/policy-dsl.md).
// Every alternative is labelled; the parse tree never leaves TreeBuilder, which turns it into the
// records of dev.caldera.dsl.internal.tree.
grammar Policy;

policyFile
    : policyHeader declaration* EOF
    ;

policyHeader
    : POLICY name=IDENT
    ;

declaration
    : CLASSIFY name=IDENT AS classNames LBRACE classifySource* classifyOtherwise? RBRACE  # classifyDeclaration
    | RECLAIM LBRACE reclaimRule* ruleOtherwise? RBRACE                                     # reclaimDeclaration
    | PREEMPTIVE LBRACE preemptiveRule* ruleOtherwise? RBRACE                               # preemptiveDeclaration
    ;

classNames
    : IDENT (PIPE IDENT)*
    ;

classifySource
    : FROM expression classMapping?
    ;

classMapping
    : LBRACE (mappingEntry (COMMA mappingEntry)* COMMA?)? RBRACE
    ;

mappingEntry
    : key=mappingKey COLON value=IDENT
    ;

mappingKey
    : IDENT   # identifierKey
    | STRING  # stringKey
    ;

classifyOtherwise
    : OTHERWISE IDENT
    ;

reclaimRule
    : reclaimer=classPattern MAY negated=NOT? RECLAIM reclaimee=classPattern (WHEN expression)?
    ;

preemptiveRule
    : verdict (FOR classPattern)? (WHEN expression)?
    ;

classPattern
    : ANY    # anyClass
    | IDENT  # namedClass
    ;

ruleOtherwise
    : OTHERWISE verdict
    ;

verdict
    : ALLOW  # allowVerdict
    | DENY   # denyVerdict
    ;

// Alternatives listed first bind tighter.
expression
    : primary                                                              # primaryExpression
    | expression DOT name=IDENT                                            # memberExpression
    | expression LBRACK key=STRING RBRACK                                  # indexExpression
    | expression EXISTS                                                    # existsExpression
    | left=expression op=(PLUS | MINUS) right=expression                   # additiveExpression
    | left=expression op=(EQ | NE | LT | LE | GT | GE) right=expression    # comparisonExpression
    | expression negated=NOT? IN LBRACK (expression (COMMA expression)*)? RBRACK  # inExpression
    | NOT expression                                                       # notExpression
    | left=expression AND right=expression                                 # andExpression
    | left=expression OR right=expression                                  # orExpression
    ;

primary
    : IDENT                                                      # nameReference
    | STRING                                                     # stringLiteral
    | NUMBER                                                     # numberLiteral
    | SIZED                                                      # sizedLiteral
    | value=(TRUE | FALSE)                                       # booleanLiteral
    | LPAREN expression RPAREN                                   # parenthesized
    | LBRACE (resourceEntry (COMMA resourceEntry)* COMMA?)? RBRACE  # resourceLiteral
    ;

resourceEntry
    : key=mappingKey COLON value=(NUMBER | SIZED)
    ;

POLICY     : 'policy';
CLASSIFY   : 'classify';
AS         : 'as';
FROM       : 'from';
OTHERWISE  : 'otherwise';
RECLAIM    : 'reclaim';
PREEMPTIVE : 'preemptive';
MAY        : 'may';
NOT        : 'not';
WHEN       : 'when';
ANY        : 'any';
ALLOW      : 'allow';
DENY       : 'deny';
FOR        : 'for';
AND        : 'and';
OR         : 'or';
IN         : 'in';
EXISTS     : 'exists';
TRUE       : 'true';
FALSE      : 'false';

LBRACE : '{';
RBRACE : '}';
LBRACK : '[';
RBRACK : ']';
LPAREN : '(';
RPAREN : ')';
COMMA  : ',';
COLON  : ':';
PIPE   : '|';
DOT    : '.';
PLUS   : '+';
MINUS  : '-';
EQ     : '==';
NE     : '!=';
LE     : '<=';
LT     : '<';
GE     : '>=';
GT     : '>';

// A number with a unit: a quantity (4Gi, 500m) or a duration (10m, 1h30m); the checker decides.
SIZED  : DIGITS ('.' DIGITS)? [a-zA-Z]+ (DIGITS ('.' DIGITS)? [a-zA-Z]+)*;
NUMBER : DIGITS ('.' DIGITS)?;
IDENT  : [a-zA-Z_] [a-zA-Z0-9_]*;
STRING : '"' (~["\\\r\n] | '\\' ["\\nt])* '"';

COMMENT : '#' ~[\r\n]* -> skip;
WS      : [ \t\r\n]+ -> skip;

fragment DIGITS : [0-9]+;
