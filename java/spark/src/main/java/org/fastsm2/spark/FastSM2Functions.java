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
import org.apache.spark.sql.catalyst.expressions.Literal;
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
import scala.runtime.AbstractFunction5;
import scala.runtime.AbstractFunction6;

/**
 * Spark SQL functions over libfastsm2, for SQL, Scala and Java users:
 *
 * <pre>
 *   sm2_verify(pub, msg, sig [, id])  BOOLEAN  true when sig is a valid signature; false (never null) otherwise
 *   sm2_sign(priv, msg [, id])        BINARY   DER signature SEQUENCE { r, s }; null for a null key or message
 *   sm3(data)                         STRING   SM3 as 64 lowercase hex digits (as sha2 gives SHA-2); null for null
 *   sm4_encrypt(input, key[, mode[, padding[, iv[, aad]]]])   BINARY   aes_encrypt with SM4: GCM by default,
 *                                     IV || ciphertext || tag (GCM), IV || ciphertext (CBC), ciphertext (ECB)
 *   sm4_decrypt(input, key[, mode[, padding[, aad]]])         BINARY   aes_decrypt with SM4: an error where it fails
 *   try_sm4_decrypt(input, key[, mode[, padding[, aad]]])     BINARY   the same, null where it fails
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
    public static final String SM2_VERIFY = "sm2_verify", SM2_SIGN = "sm2_sign", SM3 = "sm3",
            SM4_ENCRYPT = "sm4_encrypt", SM4_DECRYPT = "sm4_decrypt", TRY_SM4_DECRYPT = "try_sm4_decrypt";

    /** Every function of the extension. */
    static final String[] NAMES = {SM2_VERIFY, SM2_SIGN, SM3, SM4_ENCRYPT, SM4_DECRYPT, TRY_SM4_DECRYPT};

    /** Register the functions (NAMES) as temporary functions of this session. */
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

    /** sm4_encrypt(input, key[, mode[, padding[, iv[, aad]]]]): 2 to 6 columns. */
    public static Column sm4_encrypt(Column... args) {
        return functions.call_function(SM4_ENCRYPT, args);
    }

    /** sm4_decrypt(input, key[, mode[, padding[, aad]]]): 2 to 5 columns. */
    public static Column sm4_decrypt(Column... args) {
        return functions.call_function(SM4_DECRYPT, args);
    }

    /** try_sm4_decrypt(input, key[, mode[, padding[, aad]]]): 2 to 5 columns. */
    public static Column try_sm4_decrypt(Column... args) {
        return functions.call_function(TRY_SM4_DECRYPT, args);
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
            case SM4_ENCRYPT:
                usage = "sm4_encrypt(input, key[, mode[, padding[, iv[, aad]]]]) - input encrypted with SM4 (GB/T 32907)"
                        + " as aes_encrypt encrypts with AES: key of 16 bytes; (mode, padding) ('GCM', 'NONE') by default,"
                        + " ('CBC', 'PKCS') or ('ECB', 'PKCS'); GCM gives IV (12 bytes) || ciphertext || tag (16 bytes),"
                        + " CBC IV (16 bytes) || ciphertext; a random IV unless one is given; AAD for GCM only.";
                break;
            case SM4_DECRYPT:
                usage = "sm4_decrypt(input, key[, mode[, padding[, aad]]]) - the plaintext of what sm4_encrypt gave, as"
                        + " aes_decrypt: an error for a wrong key, a tampered input, bad padding or a bad argument.";
                break;
            case TRY_SM4_DECRYPT:
                usage = "try_sm4_decrypt(input, key[, mode[, padding[, aad]]]) - sm4_decrypt, but null where it fails"
                        + " (as try_aes_decrypt).";
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
        public Expression apply(Seq<Expression> args) {
            Seq<Expression> children = args;
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
                case SM4_ENCRYPT:
                    arity(n, 2, 6, "sm4_encrypt(input, key[, mode[, padding[, iv[, aad]]]])");
                    children = sm4Args(children, new String[] {"input", "key", "mode", "padding", "iv", "aad"});
                    fn = new Sm4Encrypt();
                    out = DataTypes.BinaryType;
                    nullable = true;
                    deterministic = true; // as aes_encrypt (whose random IVs differ from call to call too)
                    break;
                case SM4_DECRYPT:
                case TRY_SM4_DECRYPT:
                    arity(n, 2, 5, name + "(input, key[, mode[, padding[, aad]]])");
                    children = sm4Args(children, new String[] {"input", "key", "mode", "padding", "aad"});
                    fn = name.equals(SM4_DECRYPT) ? new Sm4Decrypt(false) : new Sm4Decrypt(true);
                    out = DataTypes.BinaryType;
                    nullable = true;
                    deterministic = true;
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

        /** The arguments checked (mode and padding STRING, the others BINARY or STRING) and
         *  completed with the defaults: 'GCM', 'DEFAULT', an empty IV, an empty AAD. */
        private Seq<Expression> sm4Args(Seq<Expression> children, String[] names) {
            java.util.List<Expression> l = new java.util.ArrayList<>(scala.jdk.javaapi.CollectionConverters.asJava(children));
            for (int i = 0; i < l.size(); i++) {
                boolean str = names[i].equals("mode") || names[i].equals("padding");
                DataType t = l.get(i).dataType();
                if (!(t instanceof NullType || t instanceof StringType || (!str && t instanceof BinaryType)))
                    throw new IllegalArgumentException("fastsm2: " + name + ": " + names[i] + " must be "
                            + (str ? "STRING" : "BINARY or STRING") + ", not " + t.sql());
            }
            for (int i = l.size(); i < names.length; i++) {
                switch (names[i]) {
                    case "mode": l.add(Literal.create("GCM", DataTypes.StringType)); break;
                    case "padding": l.add(Literal.create("DEFAULT", DataTypes.StringType)); break;
                    default: l.add(Literal.create(new byte[0], DataTypes.BinaryType));
                }
            }
            return scala.jdk.javaapi.CollectionConverters.asScala(l).toList();
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

    private static final class Sm4Encrypt extends AbstractFunction6<Object, Object, Object, Object, Object, Object, Object>
            implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(Object input, Object key, Object mode, Object padding, Object iv, Object aad) {
            return Sm4Rows.encrypt(input, key, mode, padding, iv, aad);
        }
    }

    private static final class Sm4Decrypt extends AbstractFunction5<Object, Object, Object, Object, Object, Object>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final boolean orNull;

        Sm4Decrypt(boolean orNull) {
            this.orNull = orNull;
        }

        @Override
        public Object apply(Object input, Object key, Object mode, Object padding, Object aad) {
            return orNull ? Sm4Rows.tryDecrypt(input, key, mode, padding, aad) : Sm4Rows.decrypt(input, key, mode, padding, aad);
        }
    }
}
