// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.spark;

import java.io.Serializable;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.catalyst.expressions.ScalaUDF;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.AbstractFunction3;
import scala.runtime.AbstractFunction4;

/**
 * Spark SQL functions over libfastsm2, for SQL, Scala and Java users:
 *
 * <pre>
 *   sm2_verify(pub, msg, sig [, id])  BOOLEAN  true when sig is a valid signature; false (never null) otherwise
 *   sm2_sign(priv, msg [, id])        BINARY   DER signature SEQUENCE { r, s }; null for a null key or message
 *   sm3(data)                         STRING   SM3 as 64 lowercase hex digits (as sha2 gives SHA-2); null for null
 * </pre>
 *
 * pub: BINARY (SPKI DER or a SEC1 point, 65 or 33 bytes) or STRING (SPKI
 * PEM); priv: BINARY (PKCS#8 or SEC1 DER) or STRING (PEM, unencrypted);
 * msg and data: BINARY, or STRING as its UTF-8 bytes; sig: BINARY, DER; id:
 * BINARY or STRING (UTF-8), null or absent for the default ID
 * "1234567812345678" - the conventions of the Python {@code fastsm2.spark}.
 * <p>
 * Register them with {@link #register(SparkSession)}, or with no code:
 * {@code --conf spark.sql.extensions=org.fastsm2.spark.FastSM2Extensions}.
 * The {@link Column} helpers below call the registered functions.
 */
public final class FastSM2Functions {
    private FastSM2Functions() {}

    /** The function names. */
    public static final String SM2_VERIFY = "sm2_verify", SM2_SIGN = "sm2_sign", SM3 = "sm3";

    private static final String[] NAMES = {SM2_VERIFY, SM2_SIGN, SM3};

    /** Register sm2_verify, sm2_sign and sm3 as temporary functions of this session. */
    public static void register(SparkSession spark) {
        for (String name : NAMES)
            spark.sessionState().functionRegistry().createOrReplaceTempFunction(name, builder(name), "java_udf");
    }

    /** sm2_verify(pub, msg, sig): the function must be registered. */
    public static Column sm2_verify(Column pub, Column msg, Column sig) {
        return functions.call_function(SM2_VERIFY, pub, msg, sig);
    }

    /** sm2_verify(pub, msg, sig, id). */
    public static Column sm2_verify(Column pub, Column msg, Column sig, Column id) {
        return functions.call_function(SM2_VERIFY, pub, msg, sig, id);
    }

    /** sm2_sign(priv, msg). */
    public static Column sm2_sign(Column priv, Column msg) {
        return functions.call_function(SM2_SIGN, priv, msg);
    }

    /** sm2_sign(priv, msg, id). */
    public static Column sm2_sign(Column priv, Column msg, Column id) {
        return functions.call_function(SM2_SIGN, priv, msg, id);
    }

    /** sm3(data): hex. */
    public static Column sm3(Column data) {
        return functions.call_function(SM3, data);
    }

    /**
     * The rows of {@code df} with a BOOLEAN column {@code outCol} added: what
     * {@code sm2_verify(pubCol, msgCol, sigCol[, idCol])} gives (the same
     * arguments, false never null), computed a partition at a time through
     * the library's batch API: rows grouped by key and ID, 4,096 rows at a
     * time, one native call per group. Faster than the SQL function where
     * keys sign many rows; needs no registration. idCol null: the default ID.
     */
    public static Dataset<Row> verifyBatched(Dataset<Row> df, String pubCol, String msgCol, String sigCol,
            String idCol, String outCol) {
        StructType s = df.schema();
        BatchVerify f = new BatchVerify(s.fieldIndex(pubCol), s.fieldIndex(msgCol), s.fieldIndex(sigCol),
                idCol == null ? -1 : s.fieldIndex(idCol));
        return df.mapPartitions(f, Encoders.row(s.add(outCol, DataTypes.BooleanType, false)));
    }

    // ---- what the registry and the extension hold ------------------------------------

    static ExpressionInfo info(String name) {
        String usage;
        switch (name) {
            case SM2_VERIFY:
                usage = "sm2_verify(pub, msg, sig[, id]) - true when sig (DER) is a valid SM2 signature of msg by pub"
                        + " (SPKI DER, SEC1 point or SPKI PEM) under id (default 1234567812345678); false otherwise,"
                        + " nulls and malformed input included.";
                break;
            case SM2_SIGN:
                usage = "sm2_sign(priv, msg[, id]) - the DER SM2 signature of msg by priv (PKCS#8 or SEC1, DER or PEM)"
                        + " under id (default 1234567812345678); null for a null key or message.";
                break;
            default:
                usage = "sm3(data) - the SM3 digest of data (binary, or string as UTF-8) as 64 lowercase hex digits.";
        }
        // className, db, name, usage, arguments, examples, note, group, since, deprecated, source
        return new ExpressionInfo(FastSM2Functions.class.getName(), null, name, usage, "", "", "", "", "", "",
                "java_udf");
    }

    static scala.Function1<Seq<Expression>, Expression> builder(String name) {
        return new Builder(name);
    }

    /** Makes the expression of one call: a ScalaUDF over the right FunctionN, after checking the arguments. */
    private static final class Builder extends AbstractFunction1<Seq<Expression>, Expression> implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String name;

        Builder(String name) {
            this.name = name;
        }

        @Override
        public Expression apply(Seq<Expression> children) {
            int n = children.size();
            Object fn;
            DataType out;
            boolean nullable, deterministic;
            switch (name) {
                case SM2_VERIFY:
                    arity(n, 3, 4, "sm2_verify(pub, msg, sig[, id])");
                    check(children, 0, "pub", true);
                    check(children, 1, "msg", true);
                    check(children, 2, "sig", false);
                    if (n == 4) check(children, 3, "id", true);
                    fn = n == 3 ? new Verify3() : new Verify4();
                    out = DataTypes.BooleanType;
                    nullable = false;
                    deterministic = true;
                    break;
                case SM2_SIGN:
                    arity(n, 2, 3, "sm2_sign(priv, msg[, id])");
                    check(children, 0, "priv", true);
                    check(children, 1, "msg", true);
                    if (n == 3) check(children, 2, "id", true);
                    fn = n == 2 ? new Sign2() : new Sign3();
                    out = DataTypes.BinaryType;
                    nullable = true;
                    deterministic = false; // a fresh random k per signature
                    break;
                default:
                    arity(n, 1, 1, "sm3(data)");
                    check(children, 0, "data", true);
                    fn = new Sm3();
                    out = DataTypes.StringType;
                    nullable = true;
                    deterministic = true;
            }
            @SuppressWarnings({"unchecked", "rawtypes"})
            Seq<Option<org.apache.spark.sql.catalyst.encoders.ExpressionEncoder<?>>> noEncoders =
                    (Seq) scala.collection.immutable.Nil$.MODULE$;
            return new ScalaUDF(fn, out, children, noEncoders, Option.empty(), Option.apply(name), nullable,
                    deterministic);
        }

        private static void arity(int n, int min, int max, String usage) {
            if (n < min || n > max)
                throw new IllegalArgumentException(
                        "fastsm2: " + usage + " takes " + (min == max ? "" + min : min + " or " + max)
                                + " arguments, not " + n);
        }

        private void check(Seq<Expression> children, int i, String what, boolean stringToo) {
            DataType t = children.apply(i).dataType();
            if (t instanceof BinaryType || t instanceof NullType || (stringToo && t instanceof StringType)) return;
            throw new IllegalArgumentException("fastsm2: " + name + ": " + what + " must be BINARY"
                    + (stringToo ? " or STRING" : "") + ", not " + t.sql());
        }
    }

    // ---- the row functions (serializable: Spark ships them in each task) ----------------

    private static final class Verify3 extends AbstractFunction3<Object, Object, Object, Object> implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(Object pub, Object msg, Object sig) {
            return Rows.verify(pub, msg, sig, null);
        }
    }

    private static final class Verify4 extends AbstractFunction4<Object, Object, Object, Object, Object>
            implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(Object pub, Object msg, Object sig, Object id) {
            return Rows.verify(pub, msg, sig, id);
        }
    }

    private static final class Sign2 extends AbstractFunction2<Object, Object, Object> implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(Object priv, Object msg) {
            return Rows.sign(priv, msg, null);
        }
    }

    private static final class Sign3 extends AbstractFunction3<Object, Object, Object, Object> implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(Object priv, Object msg, Object id) {
            return Rows.sign(priv, msg, id);
        }
    }

    private static final class Sm3 extends AbstractFunction1<Object, Object> implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(Object data) {
            return Rows.sm3(data);
        }
    }
}
