/* parser.y - the grammar of the SystemTap language (pass 1).
 *
 * Tokens come from preproc.c (pp_next), already stripped of macros,
 * conditionals and arguments.  Actions only build nodes (ast.c) or call the
 * helpers in parse_help.c.  Operator precedence follows stap (lowest first):
 * assignment, ?:, ||, &&, |, ^, &, in, comparisons and =~, shifts, '.',
 * + -, * / %, unary, ++ --.  Statements need no separator, so an expression
 * always extends as far as it can (the %prec LOWEST rules below).
 */
%define api.pure full
%define api.location.type {struct loc}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {struct parser *p}

%code requires {
#include "parse/parse.h"
#include "parse/parse_help.h"
}

%code {
#include <string.h>
#include "ast/ast_new.h"

#define YYLLOC_DEFAULT(Cur, Rhs, N) \
	do { (Cur) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0); } while (0)

static int yylex(YYSTYPE *lval, YYLTYPE *lloc, struct parser *p);
static void yyerror(YYLTYPE *loc, struct parser *p, const char *msg);

#define A (p->a)
#define OUT (p->out)
#define FILE_ (p->file)
}

%union {
	struct token tok;
	struct exp *exp;
	struct stmt *stmt;
	struct vec vec;
	struct func *func;
	struct global *glob;
	struct pp_comp *comp;
	struct fe_head *fe;
	int num;
	enum type type;
}

%token <tok> IDENT "identifier" TARGET "target variable" NUMBER "number"
%token <tok> PRETTY "'$' suffix"
%token <tok> STRING "string" EMBEDDED "embedded code" PP_WORD "probe point"
%token <tok> PROBE "'probe'" GLOBAL "'global'" PRIVATE "'private'"
%token <tok> FUNCTION "'function'" IF "'if'" ELSE "'else'" FOR "'for'"
%token <tok> FOREACH "'foreach'" IN "'in'" LIMIT "'limit'" RETURN "'return'"
%token <tok> DELETE "'delete'" WHILE "'while'" BREAK "'break'"
%token <tok> CONTINUE "'continue'" NEXT "'next'" TRY "'try'" CATCH "'catch'"
%token <tok> KW_STRING "'string'" KW_LONG "'long'"
%token <tok> INC "'++'" DEC "'--'" ARROW "'->'" SHL "'<<'" SHR "'>>'"
%token <tok> USHR "'>>>'" EQ "'=='" NE "'!='" LE "'<='" GE "'>='"
%token <tok> ANDAND "'&&'" OROR "'||'" MATCH "'=~'" NOMATCH "'!~'"
%token <tok> APPEND "'<<<'" PLUSEQ "'+='" ASSIGNOP "assignment operator"
%token <tok> AT_CAST "'@cast'" AT_DEFINED "'@defined'"
%token <tok> AT_PROBEWRITE "'@probewrite'" AT_ENTRY "'@entry'"
%token <tok> AT_PERF "'@perf'" AT_VAR "'@var'" AT_CONST "'@const'"
%token <tok> AT_STAT "statistic operator" AT_HIST_LINEAR "'@hist_linear'"
%token <tok> AT_HIST_LOG "'@hist_log'" AT_REGISTER "register operator"
%token <tok> AT_DEREF "dereference operator"
%token <tok> PP_LBRACE "'{'" PP_RBRACE "'}'"
%token <tok> ATWORD "macro" ARG "argument"
%token <tok> PP_OPEN "'%('" PP_THEN "'%?'" PP_ELSE "'%:'" PP_CLOSE "'%)'"
%token <tok> '+' '-' '*' '/' '%' '<' '>' '=' '!' '~' '&' '|' '^' '?' ':'
%token <tok> '.' ',' ';' '(' ')' '[' ']' '{' '}'

%type <exp> exp primary opt_exp literal strings target autocast hist_op
%type <exp> array_ref
%type <exp> index_elem opt_module
%type <vec> args opt_args index_list pp_list probe_point pp_comps pp_comp
%type <vec> pp_alts pp_alt stmts params opt_params
%type <stmt> stmt block func_body
%type <func> func_head
%type <glob> global_item
%type <comp> pp_name
%type <fe> fe_head fe_sorted fe_lhs fe_keys fe_keylist
%type <num> fe_dir pp_suffix opt_prio
%type <type> opt_type type_kw
%type <tok> member

/* Lowest first.  LOWEST ends an expression statement, a bare return or a
 * lone name only when nothing can continue it. */
%precedence LOWEST
%precedence IFX
%precedence ELSE
%right '=' PLUSEQ ASSIGNOP APPEND
%right '?' ':'
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%precedence IN
%left '<' '>' LE GE EQ NE MATCH NOMATCH
%left SHL SHR USHR
%left '.'
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY '!' '~'
%left INC DEC
%precedence '(' '[' ARROW
%precedence IDENT NUMBER STRING TARGET EMBEDDED AT_CAST AT_DEFINED
%precedence AT_PROBEWRITE AT_ENTRY AT_PERF AT_VAR AT_CONST AT_STAT
%precedence AT_HIST_LINEAR AT_HIST_LOG AT_REGISTER AT_DEREF ';'

%%

/* file -> { declaration } */
file:
	  %empty
	| file decl		{ p->sysv_mark = p->sysv_conds; }
	;

decl:
	  PROBE pp_list block
		{ struct probe *pr = ast_probe(A, $1.loc, $2, $3, FILE_);
		  pr->version_dependent = help_version_dep(p);
		  vec_push(A, &OUT->probes, pr); }
	| PROBE probe_point '=' pp_list block
		{ help_alias_name(p, $2);
		  vec_push(A, &OUT->aliases, help_alias_version(p,
			ast_alias(A, $1.loc, $2, $4,
			ALIAS_PROLOGUE, $5, NULL, FILE_))); }
	| PROBE probe_point '=' pp_list block ',' block
		{ help_alias_name(p, $2);
		  vec_push(A, &OUT->aliases, help_alias_version(p,
			ast_alias(A, $1.loc, $2, $4,
			ALIAS_BOTH, $5, $7, FILE_))); }
	| PROBE probe_point PLUSEQ pp_list block
		{ help_alias_name(p, $2);
		  vec_push(A, &OUT->aliases, help_alias_version(p,
			ast_alias(A, $1.loc, $2, $4,
			ALIAS_EPILOGUE, $5, NULL, FILE_))); }
	| GLOBAL global_list opt_semi
	| PRIVATE GLOBAL private_global_list opt_semi
	| PRIVATE private_global_list opt_semi
	| func_head func_body
		{ $1->body = $2; help_func_pragmas($1);
		  vec_push(A, &OUT->funcs, $1); }
	| PRIVATE func_head func_body
		{ $2->body = $3; $2->is_private = 1; help_func_pragmas($2);
		  vec_push(A, &OUT->funcs, $2); }
	| EMBEDDED
		{ help_embedded_ok(p, $1.loc);
		  vec_push(A, &OUT->embeds, ast_embed(A, $1.loc, $1.text, FILE_)); }
	| error
	;

opt_semi:
	  %empty %prec LOWEST
	| ';'
	;

/* global a, b = 1, c[10], d%, e%[5] */
global_list:
	  global_item			{ help_global_add(p, $1, 0); }
	| global_list ',' global_item	{ help_global_add(p, $3, 0); }
	;

private_global_list:
	  global_item			{ help_global_add(p, $1, 1); }
	| private_global_list ',' global_item
					{ help_global_add(p, $3, 1); }
	;

global_item:
	  IDENT			{ $$ = ast_global(A, $1.loc, $1.text, FILE_); }
	| IDENT '=' literal
		{ $$ = ast_global(A, $1.loc, $1.text, FILE_); $$->init = $3; }
	| IDENT '=' IDENT
		{ $$ = ast_global(A, $1.loc, $1.text, FILE_);
		  parse_error(p, $3.loc, "parse.global-init-literal",
			"global '%s' can only be initialized with a literal string or number",
			$1.text); }
	| IDENT '[' NUMBER ']'
		{ $$ = ast_global(A, $1.loc, $1.text, FILE_);
		  $$->max_entries = help_array_size(p, &$3); $$->is_array_decl = 1; }
	| IDENT '%'
		{ $$ = ast_global(A, $1.loc, $1.text, FILE_); $$->wrap = 1; }
	| IDENT '%' '[' NUMBER ']'
		{ $$ = ast_global(A, $1.loc, $1.text, FILE_); $$->wrap = 1;
		  $$->max_entries = help_array_size(p, &$4); $$->is_array_decl = 1; }
	;

literal:
	  NUMBER		{ $$ = ast_num(A, $1.loc, $1.num); }
	| '-' NUMBER		{ $$ = help_neg_literal(p, $1.loc, ast_num(A, $2.loc, $2.num)); }
	| strings
	;

strings:
	  STRING			{ $$ = help_string(p, &$1); }
	| strings STRING		{ $$ = help_concat(p, $1, &$2); }
	;

/* function name[:type] (params) [:priority] { … } | %{ … %} */
func_head:
	  FUNCTION IDENT opt_type '(' opt_params ')' opt_prio
		{ $$ = ast_func(A, $2.loc, $2.text, $3, $5, FILE_);
		  $$->priority = $7 ? $7 : (p->file->is_tapset ? 1 : 0); }
	;

func_body:
	  block
	| EMBEDDED
		{ help_embedded_ok(p, $1.loc);
		  $$ = ast_stmt(A, ST_EMBEDDED, $1.loc);
		  $$->u.embedded.code = $1.text; }
	;

opt_type:
	  %empty		{ $$ = TY_UNKNOWN; }
	| ':' type_kw		{ $$ = $2; }
	;

type_kw:
	  KW_LONG		{ $$ = TY_LONG; }
	| KW_STRING		{ $$ = TY_STRING; }
	;

opt_params:
	  %empty		{ $$ = (struct vec){0}; }
	| params
	;

params:
	  IDENT opt_type	{ $$ = help_vec1(p, ast_param(A, $1.loc, $1.text, $2)); }
	| params ',' IDENT opt_type
		{ $$ = help_param_add(p, $1, ast_param(A, $3.loc, $3.text, $4)); }
	;

opt_prio:
	  %empty		{ $$ = 0; }
	| ':' NUMBER
		{ $$ = (int)$2.num;
		  if ($2.num < 1 || $2.num > 0x7fffffff)
			parse_error(p, $2.loc, "parse.bad-priority",
				"function priority must be a positive number"); }
	;

/* ---- probe points ---- */

pp_list:
	  probe_point
	| pp_list ',' probe_point	{ $$ = help_vec_cat(p, $1, $3); }
	;

/* one written probe point; brace alternatives make it several */
probe_point:
	  pp_comps pp_suffix
		{ $$ = help_pp_points(p, @1, $1, $2, NULL); }
	| pp_comps pp_suffix IF '(' exp ')'
		{ $$ = help_pp_points(p, @1, $1, $2, $5); }
	;

pp_suffix:
	  %empty		{ $$ = 0; }
	| '?'			{ $$ = '?'; }
	| '!'			{ $$ = '!'; }
	;

pp_comps:
	  pp_comp
	| pp_comps '.' pp_comp		{ $$ = help_pp_cat(p, $1, $3); }
	;

pp_comp:
	  pp_name			{ $$ = help_pp_one(p, $1); }
	| PP_LBRACE pp_alts PP_RBRACE	{ $$ = $2; }
	;

/* an alternative may carry its own suffix or condition, when nothing
 * follows its group: kernel.{trace("a")!, trace("b")} */
pp_alts:
	  pp_alt
	| pp_alts ',' pp_alt		{ $$ = help_pp_union(p, $1, $3); }
	;

pp_alt:
	  pp_comps pp_suffix		{ $$ = help_pp_mark(p, $1, $2, NULL); }
	| pp_comps pp_suffix IF '(' exp ')'
					{ $$ = help_pp_mark(p, $1, $2, $5); }
	;

pp_name:
	  PP_WORD		{ $$ = ast_pp_comp(A, $1.loc, $1.text, NULL, 0); }
	| PP_WORD '(' literal ')'
		{ $$ = ast_pp_comp(A, $1.loc, $1.text, $3, 1); }
	| PP_WORD '(' IDENT ')'
		{ $$ = ast_pp_comp(A, $1.loc, $1.text, NULL, 0);
		  parse_error(p, $3.loc, "parse.probe-arg-literal",
			"probe point argument must be a literal string or number (write \"%s\")",
			$3.text); }
	;

/* ---- statements ---- */

block:
	  '{' stmts '}'		{ $$ = ast_block(A, $1.loc, $2); }
	;

stmts:
	  %empty		{ $$ = (struct vec){0}; }
	| stmts stmt		{ $$ = help_vec_add(p, $1, $2); }
	;

/* Simple statements swallow one ';' after them; blocks and compound
 * statements do not (a ';' there is a statement of its own). */
stmt:
	  block
	| ';'			{ $$ = ast_stmt(A, ST_NULL, $1.loc); }
	| exp opt_semi		{ $$ = ast_exp_stmt(A, ST_EXP, @1, $1); }
	| IF '(' exp ')' stmt %prec IFX
		{ $$ = ast_if(A, $1.loc, $3, $5, NULL); }
	| IF '(' exp ')' stmt ELSE stmt
		{ $$ = ast_if(A, $1.loc, $3, $5, $7); }
	| ELSE stmt
		{ $$ = $2;
		  parse_error(p, $1.loc, "parse.else-without-if",
			"'else' without a matching 'if'"); }
	| WHILE '(' exp ')' stmt
		{ $$ = ast_for(A, $1.loc, NULL, $3, NULL, $5, 1); }
	| FOR '(' opt_exp ';' opt_exp ';' opt_exp ')' stmt
		{ $$ = ast_for(A, $1.loc, $3, $5, $7, $9, 0); }
	| FOR '(' opt_exp ',' opt_exp ';' opt_exp ')' stmt
		{ $$ = ast_for(A, $1.loc, $3, $5, $7, $9, 0);
		  parse_error(p, $4.loc, "parse.for-comma",
			"expected ';' in for loop: the parts of for (init; cond; incr) are separated by ';'"); }
	| FOREACH '(' fe_head ')' stmt
		{ $$ = help_foreach(p, $1.loc, $3, $5); }
	| BREAK opt_semi	{ $$ = ast_stmt(A, ST_BREAK, $1.loc); }
	| CONTINUE opt_semi	{ $$ = ast_stmt(A, ST_CONTINUE, $1.loc); }
	| NEXT opt_semi		{ $$ = ast_stmt(A, ST_NEXT, $1.loc); }
	| RETURN ';'		{ $$ = help_return(p, $1.loc, NULL, 1); }
	| RETURN %prec LOWEST	{ $$ = help_return(p, $1.loc, NULL, 0); }
	| RETURN exp opt_semi	{ $$ = help_return(p, $1.loc, $2, 1); }
	| DELETE exp opt_semi	{ $$ = ast_exp_stmt(A, ST_DELETE, $1.loc, $2); }
	| TRY block CATCH block	{ $$ = ast_try(A, $1.loc, $2, NULL, $4); }
	| TRY block CATCH '(' IDENT ')' block
		{ $$ = ast_try(A, $1.loc, $2, ast_sym(A, $5.loc, $5.text), $7); }
	;

opt_exp:
	  %empty		{ $$ = NULL; }
	| exp
	;

/* foreach ([k1, k2-] in arr[*, 5] @sum+ limit 10) */
fe_head:
	  fe_sorted
	| fe_sorted LIMIT exp	{ $$ = $1; $$->limit = $3; }
	;

fe_sorted:
	  fe_lhs IN array_ref
		{ $$ = $1; $$->array = $3; }
	| fe_lhs IN IDENT '[' index_list ']'
		{ $$ = $1; $$->array = ast_sym(A, $3.loc, $3.text); $$->slice = $5; }
	| fe_sorted '+'		{ $$ = $1; help_fe_sort(p, $$, $2.loc, NULL, 1); }
	| fe_sorted '-'		{ $$ = $1; help_fe_sort(p, $$, $2.loc, NULL, -1); }
	| fe_sorted AT_STAT '+'	{ $$ = $1; help_fe_sort(p, $$, $2.loc, $2.text, 1); }
	| fe_sorted AT_STAT '-'	{ $$ = $1; help_fe_sort(p, $$, $2.loc, $2.text, -1); }
	| fe_sorted AT_STAT %prec LOWEST
		{ $$ = $1; help_fe_sort(p, $$, $2.loc, $2.text, 0); }
	;

fe_lhs:
	  fe_keys
	| IDENT fe_dir '=' fe_keys
		{ $$ = $4; help_fe_value(p, $$, &$1, $2); }
	| IDENT fe_dir ',' fe_keylist
		{ $$ = $4;
		  parse_error(p, $3.loc, "parse.foreach-brackets",
			"several foreach keys must be in brackets: foreach ([k1, k2] in array)"); }
	;

fe_keys:
	  IDENT fe_dir		{ $$ = help_fe_new(p); help_fe_key(p, $$, &$1, $2); }
	| '[' fe_keylist ']'	{ $$ = $2; }
	;

fe_keylist:
	  IDENT fe_dir		{ $$ = help_fe_new(p); help_fe_key(p, $$, &$1, $2); }
	| fe_keylist ',' IDENT fe_dir
		{ $$ = $1; help_fe_key(p, $$, &$3, $4); }
	;

fe_dir:
	  %empty		{ $$ = 0; }
	| '+'			{ $$ = 1; }
	| '-'			{ $$ = -1; }
	;

/* ---- expressions ---- */

exp:
	  exp '=' exp		{ $$ = help_assign(p, @2, OP_ASSIGN, $1, $3); }
	| exp PLUSEQ exp	{ $$ = help_assign(p, @2, OP_ADD_ASSIGN, $1, $3); }
	| exp ASSIGNOP exp
		{ $$ = help_assign(p, @2, op_assign_named($2.text), $1, $3); }
	| exp APPEND exp	{ $$ = help_assign(p, @2, OP_APPEND, $1, $3); }
	| exp '?' exp ':' exp	{ $$ = ast_ternary(A, @1, $1, $3, $5); }
	| exp OROR exp		{ $$ = ast_binary(A, EX_LOG_OR, @2, OP_LOG_OR, $1, $3); }
	| exp ANDAND exp	{ $$ = ast_binary(A, EX_LOG_AND, @2, OP_LOG_AND, $1, $3); }
	| exp '|' exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_OR, $1, $3); }
	| exp '^' exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_XOR, $1, $3); }
	| exp '&' exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_AND, $1, $3); }
	| exp IN array_ref	{ $$ = ast_in(A, @1, help_vec1(p, $1), $3); }
	| '[' index_list ']' IN array_ref
		{ $$ = ast_in(A, $1.loc, $2, $5); }
	| exp '<' exp		{ $$ = ast_binary(A, EX_CMP, @2, OP_LT, $1, $3); }
	| exp '>' exp		{ $$ = ast_binary(A, EX_CMP, @2, OP_GT, $1, $3); }
	| exp LE exp		{ $$ = ast_binary(A, EX_CMP, @2, OP_LE, $1, $3); }
	| exp GE exp		{ $$ = ast_binary(A, EX_CMP, @2, OP_GE, $1, $3); }
	| exp EQ exp		{ $$ = ast_binary(A, EX_CMP, @2, OP_EQ, $1, $3); }
	| exp NE exp		{ $$ = ast_binary(A, EX_CMP, @2, OP_NE, $1, $3); }
	| exp MATCH strings	{ $$ = ast_binary(A, EX_REGEX, @2, OP_MATCH, $1, $3); }
	| exp NOMATCH strings	{ $$ = ast_binary(A, EX_REGEX, @2, OP_NOMATCH, $1, $3); }
	| exp SHL exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_SHL, $1, $3); }
	| exp SHR exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_SHR, $1, $3); }
	| exp USHR exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_USHR, $1, $3); }
	| exp '.' exp		{ $$ = ast_binary(A, EX_CONCAT, @2, OP_CAT, $1, $3); }
	| exp '+' exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_ADD, $1, $3); }
	| exp '-' exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_SUB, $1, $3); }
	| exp '*' exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_MUL, $1, $3); }
	| exp '/' exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_DIV, $1, $3); }
	| exp '%' exp		{ $$ = ast_binary(A, EX_BINARY, @2, OP_MOD, $1, $3); }
	| '-' exp %prec UNARY	{ $$ = ast_unary(A, EX_UNARY, $1.loc, OP_NEG, $2); }
	| '+' exp %prec UNARY	{ $$ = ast_unary(A, EX_UNARY, $1.loc, OP_POS, $2); }
	| '!' exp		{ $$ = ast_unary(A, EX_UNARY, $1.loc, OP_NOT, $2); }
	| '~' exp		{ $$ = ast_unary(A, EX_UNARY, $1.loc, OP_COMPL, $2); }
	| '&' exp %prec UNARY	{ $$ = help_addr_of(p, $1.loc, $2); }
	| INC exp		{ $$ = ast_unary(A, EX_PRE_INC, $1.loc, OP_INC, $2); }
	| DEC exp		{ $$ = ast_unary(A, EX_PRE_INC, $1.loc, OP_DEC, $2); }
	| exp INC		{ $$ = ast_unary(A, EX_POST_INC, @1, OP_INC, $1); }
	| exp DEC		{ $$ = ast_unary(A, EX_POST_INC, @1, OP_DEC, $1); }
	| primary %prec LOWEST
	;

primary:
	  NUMBER		{ $$ = ast_num(A, $1.loc, $1.num); }
	| strings %prec LOWEST
	| EMBEDDED
		{ help_embedded_ok(p, $1.loc); $$ = ast_embedded(A, $1.loc, $1.text); }
	| '(' exp ')'		{ $$ = $2; $$->parens = 1; }
	| IDENT %prec LOWEST	{ $$ = help_sym(p, &$1); }
	| IDENT '[' index_list ']'
		{ $$ = ast_index(A, $1.loc, ast_sym(A, $1.loc, $1.text), $3); }
	| IDENT '(' opt_args ')'	{ $$ = help_call(p, &$1, $3); }
	| target %prec LOWEST
	| autocast %prec LOWEST
	| hist_op %prec LOWEST
	| hist_op '[' exp ']'
		{ $$ = ast_index(A, @1, $1, help_vec1(p, $3)); }
	| AT_STAT '(' exp ')'
		{ $$ = ast_stat(A, $1.loc, $1.text + 1, $3, NULL); }
	| AT_STAT '(' exp ',' exp ')'
		{ $$ = ast_stat(A, $1.loc, $1.text + 1, $3, $5);
		  if (strcmp($1.text, "@variance"))
			parse_error(p, $4.loc, "parse.stat-args",
				"%s takes one argument", $1.text);
		  else
			help_variance_shift(p, $5); }
	| AT_DEFINED '(' exp ')'
		{ $$ = ast_op(A, EX_DEFINED, $1.loc, $3, NULL, NULL); }
	| AT_ENTRY '(' exp ')'
		{ $$ = ast_op(A, EX_ENTRY, $1.loc, $3, NULL, NULL); }
	| AT_PROBEWRITE '(' exp ')'
		{ $$ = ast_op(A, EX_PROBEWRITE, $1.loc, $3, NULL, NULL); }
	| AT_PERF '(' strings ')'
		{ $$ = ast_op(A, EX_PERF, $1.loc, NULL, $3->u.str.s, NULL);
		  if (!*$3->u.str.s)
			parse_error(p, $4.loc, "parse.expected-nonempty-string",
				"expected non-empty string"); }
	| AT_CONST '(' strings ')'
		{ $$ = ast_op(A, EX_CONST, $1.loc, NULL, $3->u.str.s, NULL);
		  help_guru_op(p, &$1); }
	| AT_REGISTER '(' exp ')'
		{ $$ = ast_op(A, EX_REGISTER, $1.loc, $3, NULL, NULL);
		  $$->u.op.user = $1.text[1] == 'u';
		  if (!$$->u.op.user)
			help_guru_op(p, &$1); }
	| AT_DEREF '(' exp ',' exp ')'
		{ $$ = ast_op(A, EX_DEREF, $1.loc, $5, NULL, NULL);
		  $$->u.op.size = $3; $$->u.op.user = $1.text[1] == 'u';
		  if (!$$->u.op.user)
			help_guru_op(p, &$1); }
	;

/* $var, @cast(…), @var(…) and their ->member / [index] components */
target:
	  TARGET		{ $$ = help_target(p, &$1); }
	| AT_CAST '(' exp ',' strings opt_module ')'
		{ $$ = ast_op(A, EX_CAST, $1.loc, $3, $5->u.str.s,
			      $6 ? $6->u.str.s : NULL); }
	| AT_VAR '(' strings opt_module ')'
		{ $$ = ast_op(A, EX_ATVAR, $1.loc, NULL, $3->u.str.s,
			      $4 ? $4->u.str.s : NULL); }
	| target ARROW member	{ $$ = help_member(p, $1, &$3); }
	| target '[' exp ']'	{ $$ = help_target_index(p, $1, $3, $2.loc); }
	| target PRETTY		{ $$ = help_member(p, $1, &$2); }
	;

/* value->member: stap 4 lets any value carry a pointer type */
autocast:
	  primary ARROW member
		{ struct token m = $3; m.loc = $2.loc;	/* stap's place: '->' */
		  $$ = help_member(p, ast_op(A, EX_AUTOCAST, $2.loc, $1, NULL, NULL), &m); }
	| primary '[' exp ']'
		{ $$ = help_target_index(p, ast_op(A, EX_AUTOCAST, $2.loc, $1, NULL, NULL),
					 $3, $2.loc); }
	| autocast ARROW member	{ struct token m = $3; m.loc = $2.loc;
				  $$ = help_member(p, $1, &m); }
	| autocast '[' exp ']'	{ $$ = help_target_index(p, $1, $3, $2.loc); }
	;

opt_module:
	  %empty		{ $$ = NULL; }
	| ',' strings		{ $$ = $2; }
	;

/* a member may be named like a keyword: $p->next, $s->string */
member:
	  IDENT | TARGET | PROBE | GLOBAL | PRIVATE | FUNCTION | IF | ELSE
	| FOR | FOREACH | IN | LIMIT | RETURN | DELETE | WHILE | BREAK
	| CONTINUE | NEXT | TRY | CATCH | KW_STRING | KW_LONG
	;

hist_op:
	  AT_HIST_LINEAR '(' exp ',' exp ',' exp ',' exp ')'
		{ $$ = ast_hist(A, $1.loc, 0, $3, $5, $7, $9);
		  help_hist_bound(p, $5); help_hist_bound(p, $7);
		  help_hist_bound(p, $9); }
	| AT_HIST_LOG '(' exp ')'
		{ $$ = ast_hist(A, $1.loc, 1, $3, NULL, NULL, NULL); }
	;

array_ref:
	  IDENT			{ $$ = ast_sym(A, $1.loc, $1.text); }
	| hist_op
	;

index_list:
	  index_elem			{ $$ = help_vec1(p, $1); }
	| index_list ',' index_elem	{ $$ = help_vec_add(p, $1, $3); }
	;

/* '*' is the wildcard of slices, delete and in */
index_elem:
	  exp
	| '*'			{ $$ = NULL; }
	;

opt_args:
	  %empty		{ $$ = (struct vec){0}; }
	| args
	;

args:
	  exp			{ $$ = help_vec1(p, $1); }
	| args ',' exp		{ $$ = help_vec_add(p, $1, $3); }
	;

%%

static int yylex(YYSTYPE *lval, YYLTYPE *lloc, struct parser *p)
{
	int type;

	/* a fast attempt ends at its first error (parse_pass.c) */
	if (p->fast && p->errors) {
		memset(&lval->tok, 0, sizeof lval->tok);
		type = 0;
	} else {
		type = pp_next(p, &lval->tok);
	}

	lval->tok.type = type;
	*lloc = lval->tok.loc;
	p->last = lval->tok;
	p->ntokens++;
	return type;
}

static void yyerror(YYLTYPE *loc, struct parser *p, const char *msg)
{
	parse_error(p, *loc, "parse.syntax", "%s", msg);
}

/* The name bison gives a token, without its outer double quotes. */
static const char *sym_name(struct parser *p, yysymbol_kind_t k)
{
	const char *n = yysymbol_name(k);
	size_t len = strlen(n);

	if (len >= 2 && n[0] == '"' && n[len - 1] == '"')
		return arena_strndup(p->a, n + 1, len - 2);
	return n;
}

static int expects(const yysymbol_kind_t *exp, int n, yysymbol_kind_t k)
{
	int i;

	for (i = 0; i < n; i++)
		if (exp[i] == k)
			return 1;
	return 0;
}

static int expects_named(struct parser *p, const yysymbol_kind_t *exp, int n,
			 const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(sym_name(p, exp[i]), name))
			return 1;
	return 0;
}

/* Tokens that could only continue an expression already complete; left
 * out of "expected …" lists, which should name what closes it. */
static int continues_exp(struct parser *p, yysymbol_kind_t k)
{
	static const char *const ops[] = {
		"'+'", "'-'", "'*'", "'/'", "'%'", "'<'", "'>'", "'='", "'&'",
		"'|'", "'^'", "'?'", "'.'", "'('", "'['", "'++'", "'--'",
		"'->'", "'<<'", "'>>'", "'>>>'", "'=='", "'!='", "'<='",
		"'>='", "'&&'", "'||'", "'=~'", "'!~'", "'<<<'", "'+='",
		"assignment operator", "'in'", "string",
	};
	const char *name = sym_name(p, k);
	size_t i;

	for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (!strcmp(name, ops[i]))
			return 1;
	return 0;
}

/* Say what was expected in words: a declaration, a statement, an
 * expression, a literal, or the few tokens that would close what is open. */
static int yyreport_syntax_error(const yypcontext_t *ctx, struct parser *p)
{
	yysymbol_kind_t exp[YYNTOKENS];
	int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS), i, m = 0;
	const char *found = token_desc(p, &p->last);
	struct loc loc = *yypcontext_location(ctx);
	struct strbuf sb = {0};
	const char *id = "parse.expected";

	if (p->fast) {
		parse_error(p, loc, "parse.syntax", "syntax error");
		return 0;
	}
	/* the token was already reported by the lexer or preprocessor */
	if (p->ntokens - p->quiet_after <= 2 && p->quiet_after)
		return 0;
	if (n < 0)
		n = 0;
	if (yypcontext_token(ctx) == YYSYMBOL_YYEOF &&
	    expects_named(p, exp, n, "'}'")) {
		sb_puts(&sb, "missing '}' before the end of the file");
		found = NULL;
		id = "parse.missing-brace";
	} else if (expects(exp, n, YYSYMBOL_PROBE) && expects(exp, n, YYSYMBOL_GLOBAL)) {
		sb_puts(&sb, "expected 'probe', 'global', 'private', 'function', or '%{'");
		id = "parse.expected-declaration";
	} else if (expects(exp, n, YYSYMBOL_FOREACH)) {
		sb_puts(&sb, "expected a statement");
		id = "parse.expected-statement";
	} else if (expects(exp, n, YYSYMBOL_IDENT) && expects(exp, n, YYSYMBOL_TARGET)) {
		sb_puts(&sb, "expected an expression");
		id = "parse.expected-expression";
	} else if (expects(exp, n, YYSYMBOL_NUMBER) && expects(exp, n, YYSYMBOL_STRING)) {
		sb_puts(&sb, "expected a literal string or number");
		id = "parse.expected-literal";
	} else {
		for (i = 0; i < n; i++)
			if (!continues_exp(p, exp[i]))
				exp[m++] = exp[i];
		/* only a continuation fits: the '(' after 'if' or '@var' */
		if (m == 0)
			m = n;
		if (m == 0 || m > 6) {
			sb_puts(&sb, "syntax error");
			id = "parse.syntax";
		} else {
			sb_puts(&sb, "expected ");
			for (i = 0; i < m; i++) {
				if (i)
					sb_puts(&sb, i == m - 1 ? " or " : ", ");
				sb_puts(&sb, sym_name(p, exp[i]));
			}
		}
	}
	if (found)
		parse_error(p, loc, id, "%s, found %s", sb.s, found);
	else
		parse_error(p, loc, id, "%s", sb.s);
	sb_free(&sb);
	return 0;
}

/* Two parsers are made from this grammar: parser.c, with LAC so that the
 * "expected …" lists are exact, and fast_parser.c (api.prefix fast_, no
 * LAC, a third faster), which parse_pass.c tries first, quietly, and
 * which stops at the first error.  Bison names the second one's yyparse
 * with a macro. */
#ifdef yyparse
int parse_file_fast(struct parser *p)
{
	yyparse(p);
	return p->errors;
}
#else
int parse_file(struct parser *p)
{
	yyparse(p);
	return p->errors;
}
#endif
